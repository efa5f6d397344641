import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import type { Db } from '../../src/db/database.ts'
import { dialect } from '../support/database.ts'
import { startServer, type TestServer } from '../support/harness.ts'

/**
 * A PostgreSQL connection that breaks outside a query (db/postgres.ts, db/pg-statements.ts) is
 * reported through the server's logger at warn, not dropped silently, and the pool goes on serving.
 */
describe('PostgreSQL connection errors', { skip: dialect !== 'postgres' }, () => {
  let s: TestServer
  before(async () => {
    s = await startServer()
  })
  after(() => s.close())

  const backendPid = async (db: Db) =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]?.pid as number
  const terminate = (pid: number) => sql`select pg_terminate_backend(${pid})`.execute(s.server.database.priority.db)

  /** The warn lines about database connections logged from `from` on, waited for up to 5 s. */
  async function connectionWarnings(from: number): Promise<Array<{ level: number; msg: string; err?: unknown }>> {
    const deadline = Date.now() + 5000
    for (;;) {
      const found = s.logs
        .slice(from)
        .map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown })
        .filter((entry) => entry.msg === 'database connection error')
      if (found.length > 0 || Date.now() > deadline) return found
      await sleep(20)
    }
  }

  test('an idle pooled connection that PostgreSQL ends is logged at warn, and the next query connects anew', async () => {
    // The connection goes back to the pool once the query is answered: idle there, it is terminated.
    const pid = await backendPid(s.server.database.db)
    const from = s.logs.length
    await terminate(pid)
    const warnings = await connectionWarnings(from)
    assert.equal(warnings.length, 1, `one warning: ${JSON.stringify(warnings)}`)
    assert.equal(warnings[0]?.level, 40, 'warn')
    assert.ok(warnings[0]?.err, 'with the error')
    assert.equal((await s.view('arrival')).status, 200)
  })

  test('a checked-out connection that breaks is logged at warn, and fails only its own transaction', async () => {
    const from = s.logs.length
    await assert.rejects(
      s.server.database.transaction(async (tx) => {
        await terminate(await backendPid(tx))
        await sql`select 1`.execute(tx)
      }),
    )
    const warnings = await connectionWarnings(from)
    assert.ok(warnings.length >= 1, 'warned')
    assert.ok(
      warnings.every((w) => w.level === 40),
      JSON.stringify(warnings),
    )
    assert.equal((await s.view('arrival')).status, 200)
  })
})
