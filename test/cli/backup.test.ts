import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import { dialect, freshDatabase, type TestDatabase } from '../support/database.ts'
import { startServer, type TestServer } from '../support/harness.ts'
import { serve } from '../support/serve.ts'

const run = promisify(execFile)
const PEPPER = 'backup-test-pepper-0123456789abcdef'
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url))

/** The CLI as `npm run backup` / `npm run restore` runs it, in a child process. */
async function cli(command: string, args: string[], databaseUrl: string) {
  try {
    const { stdout } = await run(process.execPath, [MAIN, command, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, KEY_PEPPER: databaseUrl.startsWith('sqlite') ? '' : PEPPER },
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

/**
 * A restore beside a running server would replace the data under it (it kept serving the restored
 * state: later posts and keys vanished, ids were given again). Each server holds the database in
 * shared use for its life (src/db/use-lock.ts), so a restore refuses, touching nothing, until every
 * server has stopped or died. SQLite: backups from npm run backup; PostgreSQL: pg_dump -Fc archives,
 * on a database of its own (the lock is the schema's, and restore replaces the whole archive).
 */
describe(`npm run restore under a live server (${dialect})`, () => {
  let database: TestDatabase
  let dir: string
  before(async () => {
    database = await freshDatabase({ file: true, own: true })
    dir = mkdtempSync(join(tmpdir(), 'clearing-restore-'))
  })
  after(async () => {
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  const config = { keyPepper: dialect === 'sqlite' ? null : PEPPER }
  const start = () => startServer({ databaseUrl: database.url, config })
  const registered = async (t: TestServer) =>
    (await t.view<{ all_time: { registered_agents: number } }>('usage')).body.all_time.registered_agents
  const backUp = async (file: string) => {
    if (dialect === 'postgres') await run('pg_dump', ['-Fc', '-d', database.url, '-f', file])
    else assert.equal((await cli('backup', [file], database.url)).code, 0)
  }
  const restore = (file: string) => cli('restore', [file], database.url)
  const keptCopies = () => readdirSync(dirname(sqlitePath())).filter((f) => f.includes('.before-restore-'))
  const sqlitePath = () => (dialect === 'sqlite' ? database.url.slice('sqlite:'.length) : join(dir, 'none'))

  test('refuses while a server runs, touching nothing; restores once it has stopped', async () => {
    let t = await start()
    try {
      await t.join('Before', 'm')
      await backUp(join(dir, 'live.backup'))
      await t.join('After', 'm')
      const refused = await restore(join(dir, 'live.backup'))
      assert.equal(refused.code, 1, refused.out)
      assert.match(refused.out, /a Clearing server or command is using .*: stop every server first, then restore$/m)
      assert.deepEqual(keptCopies(), [], 'nothing copied aside')
      assert.equal(await registered(t), 2, 'the server keeps its own data')
      await t.join('Later', 'm')
      assert.equal(await registered(t), 3)
    } finally {
      await t.close()
    }
    const restored = await restore(join(dir, 'live.backup'))
    assert.equal(restored.code, 0, restored.out)
    t = await start()
    try {
      assert.equal(await registered(t), 1, 'the state of the backup')
    } finally {
      await t.close()
    }
  })

  test(
    'a server killed with SIGKILL lets go: the restore that it held off then runs',
    { timeout: 90_000 },
    async () => {
      const server = serve({ DATABASE_URL: database.url, KEY_PEPPER: PEPPER })
      try {
        await server.listening
        const refused = await restore(join(dir, 'live.backup'))
        assert.equal(refused.code, 1, refused.out)
        assert.match(refused.out, /stop every server first/)
      } finally {
        server.child.kill('SIGKILL')
      }
      await once(server.child, 'exit')
      const restored = await restore(join(dir, 'live.backup'))
      assert.equal(restored.code, 0, restored.out)
    },
  )

  test('a backup that fails its check, or that a newer Clearing made, changes nothing', async () => {
    const t = await start()
    const future = join(dir, 'future.backup')
    try {
      await t.join('Second', 'm')
      // A migration this code does not know, in the backup only.
      const { db } = t.server.database
      await sql`insert into kysely_migration (name, timestamp) values ('999-from-the-future', 'now')`.execute(db)
      await backUp(future)
      await sql`delete from kysely_migration where name = '999-from-the-future'`.execute(db)
    } finally {
      await t.close()
    }
    const garbage = join(dir, 'garbage.backup')
    writeFileSync(garbage, 'not a backup '.repeat(1000))
    const kept = keptCopies()
    for (const [file, reason] of [
      [garbage, dialect === 'sqlite' ? /file is not a database/ : /pg_restore failed/],
      [future, /was made by a newer Clearing \(migrations 999-from-the-future\)/],
      [join(dir, 'missing.backup'), /does not exist/],
    ] as const) {
      const refused = await restore(file)
      assert.equal(refused.code, 1, refused.out)
      assert.match(refused.out, reason)
    }
    assert.deepEqual(keptCopies(), kept, 'nothing copied aside')
    if (dialect === 'sqlite')
      assert.deepEqual(
        readdirSync(dirname(sqlitePath())).filter((f) => f.includes('.restoring-')),
        [],
      )
    const after = await start()
    try {
      assert.equal(await registered(after), 2, 'the database as it was')
    } finally {
      await after.close()
    }
  })
})
