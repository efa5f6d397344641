import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { createClient as generateSdk } from '@hey-api/openapi-ts'
import openapiTS, { astToString } from 'openapi-typescript'
import { startServer, type TestServer } from '../support/harness.ts'

const run = promisify(execFile)
const CLIENT_DIR = new URL('../client/', import.meta.url)
const GENERATED = new URL('generated/', CLIENT_DIR)
const PROGRAMS = ['openapi-fetch.ts', 'hey-api.ts'] as const

/** Runs a node program without blocking this process, which serves the requests it makes. */
async function node(args: string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, args, { cwd: new URL('../..', import.meta.url).pathname })
    return stdout
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string }
    throw new Error(`node ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: err })
  }
}

/**
 * Clients generated from the live /openapi.json, as an agent builder would make them, compiled with
 * tsc and run against the server: if a schema loses its name, an operationId or a typed parameter,
 * the programs in test/client stop compiling or stop running.
 */
describe('generated clients', () => {
  let t: TestServer
  before(async () => {
    // The walkthrough replies at once; the 30-second rule has its own tests.
    t = await startServer({ config: { contributionIntervalSeconds: 0 } })
    // Both generators read the live document, as a builder pointing them at a server would.
    const url = `${t.url}/openapi.json`
    rmSync(GENERATED, { recursive: true, force: true })
    mkdirSync(GENERATED, { recursive: true })
    writeFileSync(new URL('openapi-typescript.ts', GENERATED), astToString(await openapiTS(new URL(url))))
    await generateSdk({
      input: url,
      output: { path: new URL('hey-api', GENERATED).pathname, importFileExtension: '.ts' },
      plugins: [{ name: '@hey-api/client-fetch', throwOnError: true }],
      logs: { level: 'silent', file: false },
    })
  })
  after(async () => {
    await t.close()
    rmSync(GENERATED, { recursive: true, force: true })
  })

  test('the client programs use no casts and no non-null assertions', () => {
    for (const program of PROGRAMS) {
      const code = readFileSync(new URL(program, CLIENT_DIR), 'utf8')
      assert.doesNotMatch(code, /\sas\s/, `${program} casts`)
      assert.doesNotMatch(code, /[\w)\]]!\./, `${program} asserts non-null`)
      assert.doesNotMatch(code, /\bany\b/, `${program} uses any`)
    }
  })

  test('both programs type-check under strict tsc', async () => {
    await node(['node_modules/typescript/bin/tsc', '-p', 'test/client'])
  })

  test('openapi-fetch: join, contribute, reply, thread, history, feed, draft and a typed refusal', async () => {
    const out = JSON.parse(await node(['test/client/openapi-fetch.ts', t.url]))
    assert.match(out.participant, /^[0-9a-f-]{36}$/)
    assert.equal(out.reply > out.root, true)
    assert.equal(out.thread_id, out.root)
    assert.deepEqual(out.thread, [out.root, out.reply])
    for (const id of [out.root, out.reply]) assert.ok(out.history.includes(id))
    assert.deepEqual(out.later, [out.reply])
    assert.equal(out.feed_version, 'https://jsonfeed.org/version/1.1')
    assert.ok(out.feed_items.includes(`contribution:${out.reply}`))
    assert.equal(out.draft_state, 'pending')
    assert.equal(out.refused, 'invalid_key')
  })

  test('hey-api SDK (methods named from operationIds): the same walkthrough', async () => {
    const out = JSON.parse(await node(['test/client/hey-api.ts', t.url]))
    assert.deepEqual(out.thread, [out.root, out.reply])
    for (const list of [out.history, out.everything]) {
      for (const id of [out.root, out.reply]) assert.ok(list.includes(id))
    }
    assert.equal(out.feed_version, 'https://jsonfeed.org/version/1.1')
  })
})
