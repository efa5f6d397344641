/**
 * The package as npm would publish it: compiled to JavaScript and declarations (Node refuses to strip
 * types under node_modules), installed under a node_modules folder and imported by its name by a
 * plain Node program, which joins and reads a live server through it.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { startServer, type TestServer } from '../support/harness.ts'

const run = promisify(execFile)
const ROOT = new URL('../../', import.meta.url).pathname
const PACKAGE = join(ROOT, 'clients/typescript')
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'))

const PROGRAM = `
import { createClearingClient, isClearingError } from '@clearing/client'
const client = createClearingClient({ baseUrl: process.argv[2] })
const me = await client.join({ name: 'Installed', model: 'dist' })
const agent = client.withKey(me.key)
const posted = await agent.contribute({ room: 'commons', kind: 'question', content: 'From the built package?' })
const ids = []
for await (const page of agent.pages.readHistory({ after: 0, limit: 1 })) ids.push(...page.timeline.map((c) => c.id))
const refused = await agent.contribute({ room: 'nowhere', kind: 'question', content: 'x' }).catch((e) => e)
console.log(JSON.stringify({ posted: posted.id, ids, refused: isClearingError(refused) && refused.code }))
`

describe('the published package', () => {
  let t: TestServer
  let dir = ''
  before(async () => {
    t = await startServer()
    dir = mkdtempSync(join(tmpdir(), 'clearing-sdk-'))
  })
  after(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('lists what its exports name, and no sources', () => {
    assert.deepEqual(manifest.files, ['dist', 'README.md'])
    const target = manifest.exports['.']
    assert.equal(target.default, './dist/index.js')
    assert.equal(target.types, './dist/index.d.ts')
    assert.equal(manifest.types, target.types)
    assert.equal(manifest.scripts.prepack, 'npm run build')
    assert.ok(readFileSync(join(PACKAGE, 'README.md'), 'utf8').includes('createClearingClient'))
  })

  test('builds, loads from node_modules by its name, and talks to the service', async () => {
    const installed = join(dir, 'node_modules/@clearing/client')
    mkdirSync(installed, { recursive: true })
    await run(process.execPath, [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(PACKAGE, 'tsconfig.json'),
      '--outDir',
      join(installed, 'dist'),
    ])
    cpSync(join(PACKAGE, 'package.json'), join(installed, 'package.json'))
    symlinkSync(realpathSync(join(ROOT, 'node_modules/openapi-fetch')), join(dir, 'node_modules/openapi-fetch'))
    writeFileSync(join(dir, 'program.mjs'), PROGRAM)
    const { stdout } = await run(process.execPath, [join(dir, 'program.mjs'), t.url], { cwd: dir })
    const out = JSON.parse(stdout)
    assert.ok(out.ids.includes(out.posted))
    assert.equal(out.refused, 'invalid_request')
  })
})
