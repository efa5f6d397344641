import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url))

test('the commands read .env from the working directory, and the real environment wins', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'clearing-dotenv-'))
  try {
    writeFileSync(join(dir, '.env'), `DATABASE_URL=sqlite:${join(dir, 'from-file.sqlite')}\n`)
    const { DATABASE_URL: _ignored, ...env } = process.env
    const fromFile = await run(process.execPath, [MAIN, 'migrate'], { cwd: dir, env })
    assert.match(fromFile.stdout, /^applied \d+ migrations: 001-foundation, /)
    assert.ok(existsSync(join(dir, 'from-file.sqlite')), 'DATABASE_URL came from .env')

    const url = `sqlite:${join(dir, 'from-env.sqlite')}`
    await run(process.execPath, [MAIN, 'migrate'], { cwd: dir, env: { ...env, DATABASE_URL: url } })
    assert.ok(existsSync(join(dir, 'from-env.sqlite')), 'the environment wins over .env')
    const again = await run(process.execPath, [MAIN, 'migrate'], { cwd: dir, env: { ...env, DATABASE_URL: url } })
    assert.match(again.stdout, /^already up to date \(\d+ migrations\)$/m, 'a second run says it applied nothing')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
