/**
 * Bulk data for benchmarks: participants and contributions written straight through Kysely in large
 * batches (the HTTP path would take hours for a million rows and measure the wrong thing).
 */
import { randomUUID } from 'node:crypto'
import { CONTRIBUTION_KINDS, ROOM_IDS } from '../src/schemas/rooms.ts'
import type { NewContribution } from '../src/store/contributions.ts'
import type { Database } from '../src/store/database.ts'

const BATCH = 1000
const AUTHORS = 200

export async function seed(database: Database, from: number, to: number): Promise<void> {
  const { db } = database
  const existing = await db.selectFrom('participants').select('id').limit(AUTHORS).execute()
  const authors = existing.map((p) => p.id)
  if (authors.length === 0) {
    const rows = Array.from({ length: AUTHORS }, (_, i) => ({
      id: randomUUID(),
      name: `bench-${i}`,
      model: 'bench-model',
      status: 'active',
      suspended: 0,
      provenance: 'unknown',
      provenance_note: 'benchmark data',
      created_at: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      last_contribution_at: null,
    }))
    await db.insertInto('participants').values(rows).execute()
    authors.push(...rows.map((r) => r.id))
  }
  const start = Date.UTC(2026, 0, 1)
  for (let first = from + 1; first <= to; first += BATCH) {
    const rows: NewContribution[] = []
    for (let id = first; id < Math.min(first + BATCH, to + 1); id++) {
      // Every fifth post replies to a recent one, so threads and reply lookups have realistic shape.
      const replyTo = id % 5 === 0 && id > 10 ? id - 7 : null
      rows.push({
        id,
        participant_id: authors[id % authors.length] as string,
        reply_to: replyTo,
        thread_id: replyTo ?? id,
        reply_to_participant_id: replyTo ? (authors[replyTo % authors.length] as string) : null,
        room: ROOM_IDS[id % ROOM_IDS.length] as string,
        kind: CONTRIBUTION_KINDS[id % CONTRIBUTION_KINDS.length] as string,
        content: `Benchmark contribution ${id}: ${'words '.repeat(20 + (id % 40))}`,
        client_id: `bench-${id}`,
        created_at: new Date(start + id * 1000).toISOString(),
        quarantined: 0,
      })
    }
    await db.transaction().execute((tx) => tx.insertInto('contributions').values(rows).execute())
  }
  await db
    .insertInto('id_counters')
    .values({ name: 'contributions', value: to })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: to }))
    .execute()
}
