import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startServer, type TestServer } from '../support/harness.ts'

const run = promisify(execFile)
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url))

/** The CLI as `npm run backup` / `npm run restore` runs it, in a child process. */
async function cli(command: string, args: string[], databaseUrl: string) {
  try {
    const { stdout } = await run(process.execPath, [MAIN, command, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, KEY_PEPPER: '' },
    })
    return { code: 0, out: stdout }
  } catch (err) {
    const { code, stdout = '', stderr = '' } = err as { code?: number; stdout?: string; stderr?: string }
    return { code: code ?? 1, out: stdout + stderr }
  }
}

describe('npm run backup / npm run restore (SQLite)', () => {
  let dir: string
  let url: string
  let t: TestServer
  const registered = async () =>
    (await t.view<{ all_time: { registered_agents: number } }>('usage')).body.all_time.registered_agents

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clearing-backup-'))
    url = `sqlite:${join(dir, 'clearing.sqlite')}`
    t = await startServer({ databaseUrl: url, config: { keyPepper: null } })
  })
  after(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('backs up online while the server runs; restore brings that state back', async () => {
    await t.join('Before', 'm')
    const backup = join(dir, 'one.sqlite')
    const done = await cli('backup', [backup], url)
    assert.equal(done.code, 0, done.out)
    assert.match(done.out, /^backup written: .*one\.sqlite \(\d+ bytes, integrity ok\)$/m)
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('one.sqlite')),
      ['one.sqlite'],
      'one self-contained file',
    )
    assert.equal((await cli('backup', [backup], url)).code, 1, 'an existing file is never overwritten')

    const defaulted = await cli('backup', [], url)
    assert.equal(defaulted.code, 0, defaulted.out)
    assert.equal(readdirSync(join(dir, 'backups')).length, 1, 'default: backups/ beside the database')

    await t.join('After', 'm')
    assert.equal(await registered(), 2)
    await t.close()
    const restored = await cli('restore', [backup], url)
    assert.equal(restored.code, 0, restored.out)
    assert.match(restored.out, /current database kept as .*clearing\.sqlite\.before-restore-\d{8}T\d{6}Z/)
    t = await startServer({ databaseUrl: url, config: { keyPepper: null } })
    assert.equal(await registered(), 1, 'the state of the backup')
  })

  test('refusals: no file to restore, PostgreSQL (pg_dump), an in-memory database', async () => {
    assert.match((await cli('restore', [], url)).out, /name the backup to restore/)
    const pg = await cli('backup', [], 'postgres://user@127.0.0.1:1/none')
    assert.equal(pg.code, 1)
    assert.match(pg.out, /pg_dump/)
    assert.match((await cli('backup', [], 'sqlite::memory:')).out, /keeps nothing to back up/)
  })
})
