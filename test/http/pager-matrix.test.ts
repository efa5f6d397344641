/**
 * The pager rule on every paged read of the registry (from each action's `paging` declaration): the
 * default page is 50, `limit` is honoured, has_more tells whether rows remain, the next cursor is the
 * last id returned (or the given cursor on an empty page, never 0), and walking with it sees every
 * row exactly once in ascending order.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import type { PagingDecl } from '../../src/core/action.ts'
import { LIMITS } from '../../src/schemas/common.ts'
import { call, example, makeFixture, registry, type Fixture } from '../support/examples.ts'
import { startServer, type TestServer } from '../support/harness.ts'
import { op, postDraft, submit } from '../support/operator.ts'
import { fieldNames } from '../support/variants.ts'

const SEEDED = 110
const BEYOND = 2 ** 53 - 2

type Item = Record<string, unknown>

/** Values at a path of the paging declaration: `a.b`, and `a[].b` for lists inside lists. */
function at(body: unknown, path: string): unknown[] {
  const [head, ...rest] = path.split('[].')
  let values: unknown[] = [body]
  for (const key of (head ?? '').split('.')) values = values.map((v) => (v as Record<string, unknown> | null)?.[key])
  if (rest.length === 0) return values
  return values.flatMap((list) => (Array.isArray(list) ? list.flatMap((v) => at(v, rest.join('[].'))) : []))
}

function itemsOf(body: unknown, decl: PagingDecl): Item[] {
  const items = decl.items.flatMap((path) => at(body, path).flatMap((list) => (Array.isArray(list) ? list : [])))
  // One row may sit in two lists of a page (a reply to you in a followed thread): count it once.
  const seen = new Map<string, Item>()
  for (const item of items as Item[]) seen.set(JSON.stringify(idOf(item) ?? item), item)
  return [...seen.values()]
}

/** The cursor value of an item, when its output carries it. */
function idOf(item: Item): number | undefined {
  for (const value of [item.id, item.seq, (item._clearing as Item | undefined)?.id]) {
    if (typeof value === 'number') return value
  }
  return undefined
}

/** Actions whose rows the seed below creates (more than two default pages of each). */
const SEEDS_ROWS = new Set([
  'check_returns',
  'read_returns',
  'read_history',
  'read_feed',
  'read_feedback',
  'read_drafts',
  'list_drafts',
  'list_reports',
  'list_privacy_requests',
  'list_audit_log',
])

const paged = registry.all.filter((e) => e.def.paging)

describe('every paged read declares its paging', () => {
  test('an action with an `after` input declares how it pages', () => {
    const undeclared = registry.all
      .filter((e) => fieldNames(e.def.input).includes('after') && !e.def.paging)
      .map((e) => e.def.name)
    assert.deepEqual(undeclared, [])
  })
})

describe('the pager rule on every paged read', () => {
  let t: TestServer
  let f: Fixture
  before(async () => {
    t = await startServer()
    f = await makeFixture(t)
    await seed(t, f)
  })
  after(() => t.close())

  for (const entry of paged) {
    for (const decl of entry.def.paging ?? []) {
      const label = `${entry.def.name} (${decl.cursor})`
      /** The action's example with this cursor; the action's other cursors past every row. */
      const input = (cursor: number, limit?: number) => {
        const base: Record<string, unknown> = { ...example(entry.def.name, f) }
        for (const other of entry.def.paging ?? []) base[other.cursor] = BEYOND
        base[decl.cursor] = cursor
        if (limit !== undefined) base.limit = limit
        return base
      }
      const read = async (cursor: number, limit?: number) => {
        const reply = await call(t, entry, input(cursor, limit))
        assert.equal(reply.status, 200, `${label}: ${JSON.stringify(reply.body)}`)
        const [next] = at(reply.body, decl.next)
        const [hasMore] = at(reply.body, decl.hasMore)
        assert.equal(typeof next, 'number', `${label}: next cursor at ${decl.next}`)
        assert.equal(typeof hasMore, 'boolean', `${label}: has_more at ${decl.hasMore}`)
        return { items: itemsOf(reply.body, decl), next: next as number, hasMore: hasMore as boolean }
      }

      test(`${label}: an empty page keeps the given cursor and says has_more false`, async () => {
        for (const cursor of [BEYOND, BEYOND - 1]) {
          const page = await read(cursor)
          assert.deepEqual(page.items, [])
          assert.equal(page.next, cursor, 'never 0, never another cursor')
          assert.equal(page.hasMore, false)
        }
      })

      if (!SEEDS_ROWS.has(entry.def.name)) continue

      test(`${label}: the default page holds ${LIMITS.page_default}; limit is honoured; next is the last id`, async () => {
        const first = await read(0)
        assert.equal(first.items.length, LIMITS.page_default)
        assert.equal(first.hasMore, true)
        const ids = first.items.map(idOf).filter((id): id is number => id !== undefined)
        // Pages hold the rows after the cursor in id order; the feed shows a page newest first.
        if (ids.length) assert.equal(first.next, Math.max(...ids), 'the last id of the page')
        const small = await read(0, 7)
        assert.equal(small.items.length, 7)
        assert.equal(small.hasMore, true)
        const smallIds = small.items.map(idOf).filter((id): id is number => id !== undefined)
        assert.deepEqual(
          smallIds.sort((a, b) => a - b),
          [...ids].sort((a, b) => a - b).slice(0, smallIds.length),
        )
      })

      test(`${label}: walking with next sees every row once, in order, and ends with has_more false`, async () => {
        const seen: Item[] = []
        let cursor = 0
        for (let pages = 0; ; pages++) {
          assert.ok(pages < 50, 'the walk ends')
          const page = await read(cursor, 40)
          for (const id of page.items.map(idOf))
            if (id !== undefined) assert.ok(id > cursor, 'only rows after the cursor')
          seen.push(...page.items)
          if (page.items.length) assert.ok(page.next > cursor, 'the cursor moves forward')
          cursor = page.next
          if (!page.hasMore) break
        }
        assert.ok(seen.length >= SEEDED, `${seen.length} rows seen`)
        const keys = seen.map((item) => JSON.stringify(idOf(item) ?? item))
        assert.equal(new Set(keys).size, keys.length, 'no row twice')
        const end = await read(cursor)
        // Reading the audit log is itself audited: only those new entries may follow the end.
        assert.deepEqual(
          end.items.filter((item) => item.action !== 'list_audit_log'),
          [],
        )
        if (end.items.length === 0) assert.equal(end.next, cursor)
      })
    }
  }
})

/**
 * SEEDED replies in the fixture's thread (replies to `other`, the thread the examples follow), note
 * revisions, feedback, author-searchable drafts, reports, privacy requests and audit entries.
 */
async function seed(t: TestServer, f: Fixture): Promise<void> {
  const writers = await Promise.all(Array.from({ length: 5 }, (_, i) => t.join(`Pager ${i}`, 'm')))
  let version = 1
  for (let i = 0; i < SEEDED; i++) {
    t.clock.advance(7)
    const writer = writers[i % writers.length] as { key: string }
    const replies = [
      await t.act('contribute', {
        key: writer.key,
        room: 'connection',
        kind: 'conversation',
        content: `reply ${i}`,
        client_id: randomUUID(),
        reply_to: f.contributionId,
      }),
      await t.act('save_shared_memory', {
        key: writer.key,
        expected_version: version,
        memory_id: f.memoryId,
        title: 'A note',
        kind: 'story',
        content: `revision ${i}`,
        source_ids: [f.contributionId],
        reason: 'paging',
        client_id: randomUUID(),
      }),
      await t.act('feedback', { key: writer.key, category: 'welcome', content: `fb ${i}`, client_id: randomUUID() }),
      await submit(t, postDraft({ name: 'Keyless Kit', public_status: true, public_author_search: true })),
      await t.act('report_content', {
        target_type: 'agent',
        target_id: writer.key.slice(0, 8),
        category: 'other',
        explanation: `report ${i}`,
        good_faith: true,
      }),
      await t.act('privacy_request', { kind: 'access', record_ref: `r${i}`, contact: 'a@b.c', authority: true }),
      await op(t, 'run_maintenance'),
    ]
    for (const reply of replies) assert.equal(reply.status, 200, JSON.stringify(reply.body))
    version++
  }
}
