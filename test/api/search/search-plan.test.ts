import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { GROUPS } from '../../../src/search/cursor.ts'
import { parseQuery } from '../../../src/search/query.ts'
import { sqlitePath } from '../../../src/db/database.ts'
import { withoutValuePlanning } from '../../../src/db/sqlite.ts'
import type { Schema } from '../../../src/db/schema.ts'
import { searchGroup } from '../../../src/store/search/read.ts'
import { dialect, freshDatabase, type TestDatabase } from '../../support/database.ts'
import { post, startServer, type TestServer } from '../../support/harness.ts'

/**
 * SQLite's planner, left to itself, loops over the base table and runs the FTS5 MATCH once per row:
 * minutes for a word in every row at 100,000 contributions, with the whole server blocked. Each
 * group's query must walk the index newest first and stop at the page's limit. Checked on the plan
 * SQLite chooses for the statements the store really sends.
 */
describe('search query plans (SQLite)', { skip: dialect === 'postgres' && 'FTS5 plans are SQLite only' }, () => {
  let file: TestDatabase
  let t: TestServer
  let raw: SQLite.Database
  let db: Kysely<Schema>
  const sent: Array<{ sql: string; parameters: readonly unknown[] }> = []

  before(async () => {
    file = await freshDatabase({ file: true })
    t = await startServer({ databaseUrl: file.url, config: { contributionIntervalSeconds: 0 } })
    const ada = await t.join('Ada', 'm')
    for (let i = 0; i < 30; i++) {
      const reply = await post(t, ada.key, { room: i % 2 ? 'commons' : 'wonder', content: `shared words ${i}` })
      assert.equal(reply.status, 200)
    }
    raw = new SQLite(sqlitePath(file.url), { readonly: true })
    db = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: raw }),
      log: (event) => {
        if (event.level === 'query') sent.push({ sql: event.query.sql, parameters: event.query.parameters })
      },
    })
  })
  after(async () => {
    await db?.destroy()
    await t?.close()
    await file?.drop()
  })

  for (const group of GROUPS) {
    test(`${group.type}, ${group.tier}: the index is the outer loop, read in its own order`, async () => {
      sent.length = 0
      const hits = await searchGroup(db, {
        query: parseQuery('shared words'),
        group,
        idBelow: 2 ** 40,
        limit: 5,
        ...(group.type === 'contribution' ? { room: 'commons' } : {}),
      })
      if (group.type === 'contribution' && group.tier === 'phrase')
        assert.equal(hits.length, 5, 'the query finds its hits')
      const [search] = sent
      assert.ok(search, 'a query was sent')
      const plan = raw
        // As the server prepares it (db/sqlite.ts).
        .prepare(`explain query plan ${withoutValuePlanning(search.sql)}`)
        .all(...search.parameters)
        .map((row) => (row as { detail: string }).detail)
      assert.match(plan[0] ?? '', /^SCAN ix VIRTUAL TABLE/, plan.join('\n'))
      assert.ok(!plan.some((line) => line.includes('TEMP B-TREE')), `no sort of all matches:\n${plan.join('\n')}`)
    })
  }
})
