/**
 * The pager rule on every paged read of the registry (from each action's `paging` declaration): the
 * default page is 50, `limit` is honoured, has_more tells whether rows remain, the next cursor is the
 * last id returned (or the given cursor on an empty page, never 0), and walking with it sees every
 * row exactly once in ascending order (search: in rank order, its cursor a position).
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import type { PagingDecl } from '../../src/core/action.ts'
import { LIMITS } from '../../src/schemas/common.ts'
import { call, example, makeFixture, registry, type Fixture } from '../support/examples.ts'
import { type TestServer, useServer } from '../support/harness.ts'
import { op, postDraft, submit } from '../support/operator.ts'
import { record } from '../support/learning.ts'
import { TIP_ADDRESS } from '../support/wallet.ts'
import { fieldNames } from '../support/variants.ts'

const SEEDED = 110
/** Rows seeded for the reads the main seed does not feed: more than a default page, two pages of 40. */
const EXTRA = 60
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
  for (const value of [
    item.id,
    item.seq,
    (item._clearing as Item | undefined)?.id,
    (item.record as Item | undefined)?.id,
  ]) {
    if (typeof value === 'number') return value
  }
  return undefined
}

/** Rows the seeds below create for each paged read, for every cursor it declares: more than a default page. */
const SEEDED_ROWS: Record<string, number> = {
  check_returns: SEEDED,
  read_returns: SEEDED,
  read_history: SEEDED,
  read_feed: SEEDED,
  read_feedback: SEEDED,
  read_drafts: SEEDED,
  list_drafts: SEEDED,
  list_reports: SEEDED,
  list_privacy_requests: SEEDED,
  list_audit_log: SEEDED,
  read_agent: EXTRA,
  search: EXTRA,
  list_memories: EXTRA,
  read_lessons: EXTRA,
  read_learning: EXTRA,
  my_learning: EXTRA,
  list_learning: EXTRA,
  export_research: EXTRA,
  my_wallet: EXTRA,
  my_commerce: EXTRA,
  list_orders: EXTRA,
  read_moderation_ledger: EXTRA,
  read_chain: SEEDED,
}
/** Reads whose pages follow rank, not id: their cursor is a position, so ids need not rise. */
const RANKED = new Set(['search'])

const paged = registry.all.filter((e) => e.def.paging)

describe('every paged read declares its paging', () => {
  test('an action with an `after` input declares how it pages', () => {
    const undeclared = registry.all
      .filter((e) => fieldNames(e.def.input).includes('after') && !e.def.paging)
      .map((e) => e.def.name)
    assert.deepEqual(undeclared, [])
  })

  test('the seed gives every paged read more than a default page', () => {
    assert.deepEqual(
      paged.map((e) => e.def.name).filter((name) => !(name in SEEDED_ROWS)),
      [],
    )
    for (const rows of Object.values(SEEDED_ROWS)) assert.ok(rows > LIMITS.page_default)
  })
})

describe('the pager rule on every paged read', () => {
  const { t } = useServer()
  let f: Fixture
  before(async () => {
    f = await makeFixture(t)
    await seed(t, f)
    await seedTheOtherReads(t, f)
  })

  for (const entry of paged) {
    for (const decl of entry.def.paging ?? []) {
      const label = `${entry.def.name} (${decl.cursor})`
      /** The action's example with this cursor; the action's other cursors past every row. */
      const input = (cursor: number, limit?: number) => {
        const base: Record<string, unknown> = { ...example(entry.def.name, f) }
        for (const other of entry.def.paging ?? []) base[other.cursor] = BEYOND
        base[decl.cursor] = cursor
        // An example may carry its own limit (search's does): the default page is read without one.
        if (limit === undefined) delete base.limit
        else base.limit = limit
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

      const rows = SEEDED_ROWS[entry.def.name] ?? 0
      const ranked = RANKED.has(entry.def.name)

      test(`${label}: the default page holds ${LIMITS.page_default}; limit is honoured; next is the last id`, async () => {
        const first = await read(0)
        assert.equal(first.items.length, LIMITS.page_default)
        assert.equal(first.hasMore, true)
        const small = await read(0, 7)
        assert.equal(small.items.length, 7)
        assert.equal(small.hasMore, true)
        if (ranked) {
          assert.deepEqual(small.items, first.items.slice(0, 7), 'a smaller page is the start of the default one')
          return
        }
        const ids = first.items.map(idOf).filter((id): id is number => id !== undefined)
        // Pages hold the rows after the cursor in id order; the feed shows a page newest first.
        if (ids.length) assert.equal(first.next, Math.max(...ids), 'the last id of the page')
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
          if (!ranked) {
            for (const id of page.items.map(idOf))
              if (id !== undefined) assert.ok(id > cursor, 'only rows after the cursor')
            if (page.items.length) assert.ok(page.next > cursor, 'the cursor moves forward')
          }
          seen.push(...page.items)
          cursor = page.next
          if (!page.hasMore) break
        }
        assert.ok(seen.length >= rows, `${seen.length} rows seen`)
        const keys = seen.map((item) => JSON.stringify(idOf(item) ?? item))
        assert.equal(new Set(keys).size, keys.length, 'no row twice')
        const end = await read(cursor)
        assert.deepEqual(end.items, [], 'nothing follows the end (reading the audit log writes no row)')
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

/**
 * EXTRA rows for the other paged reads: roots by `other` (its agent page, and search hits for the
 * example's "root matrices"), notes, the caller's learning records (half approved as public lessons,
 * all exportable) and consent decisions, tip receipts (sent from the fixture's wallet) and orders of
 * its session.
 */
async function seedTheOtherReads(t: TestServer, f: Fixture): Promise<void> {
  const ok = (reply: { status: number; body: unknown }, what: string) =>
    assert.equal(reply.status < 300 || reply.status === 402, true, `${what}: ${JSON.stringify(reply.body)}`)
  const consent = (contributionId: number, purpose: string) =>
    t.post('/api/learning', {
      action: 'learning_consent',
      key: f.caller.key,
      contribution_id: contributionId,
      purpose,
      granted: true,
      authorized_rightsholder: true,
      terms_version: '2026-11-22',
    })
  // Every record below draws on the caller's fixture root: consented, they are public and exportable.
  for (const purpose of ['memory', 'research_training']) ok(await consent(f.callerContributionId, purpose), purpose)
  // Moderation ledger entries: a release of an item that reads normally changes nothing else.
  for (let i = 0; i < EXTRA; i++) {
    ok(
      await op(t, 'release', {
        target_type: 'contribution',
        target_id: f.contributionId,
        reason_code: 'other',
        reason: 'paging',
      }),
      'release',
    )
  }
  for (let i = 0; i < EXTRA; i++) {
    // Past the 30-second rule for both posters; the whole seed stays within the wallet session's hour.
    t.clock.advance(31)
    ok(
      await t.act('contribute', {
        key: f.other.key,
        room: 'connection',
        kind: 'conversation',
        content: `another root of the matrices ${i}`,
        client_id: randomUUID(),
      }),
      'contribute',
    )
    ok(
      await t.act('save_shared_memory', {
        key: f.other.key,
        expected_version: 0,
        title: `Note ${i}`,
        kind: 'story',
        content: `note ${i}`,
        source_ids: [f.contributionId],
        reason: 'paging',
        client_id: randomUUID(),
      }),
      'save_shared_memory',
    )
    // The caller's roots, each with a memory consent (one decision row per contribution and purpose).
    const own = await t.act<{ id: number }>('contribute', {
      key: f.caller.key,
      room: 'connection',
      kind: 'conversation',
      content: `a root by the caller ${i}`,
      client_id: randomUUID(),
    })
    ok(own, 'contribute')
    ok(await consent(own.body.id, 'memory'), 'learning_consent')
    for (const approve of [true, false]) {
      const saved = await t.post<{ record_id: string }>('/api/learning', {
        action: 'save_learning',
        ...record(f.caller.key, [f.callerContributionId]),
      })
      ok(saved, 'save_learning')
      if (approve) {
        ok(await op(t, 'approve_learning', { record_id: saved.body.record_id, version: 1 }), 'approve_learning')
      }
    }
    ok(
      await t.post('/api/wallet', {
        action: 'verify_tip',
        tx_hash: f.wallet.chain.addTx({ to: TIP_ADDRESS, from: f.wallet.address as `0x${string}` }),
        session_token: f.wallet.session,
      }),
      'verify_tip',
    )
    ok(
      await t.post('/api/services', { action: 'order', session_token: f.wallet.session, service_id: 'review' }),
      'order',
    )
  }
}
