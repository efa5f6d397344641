import type { SelectQueryBuilder } from 'kysely'
import type { Db } from '../db/database.ts'
import type { Schema } from '../db/schema.ts'

/**
 * How many joins and keyless drafts the last moments brought, counted no further than `ceiling`: the
 * adaptive proof-of-work difficulty (services/proof-of-work.ts) needs the count only up to where it stops
 * rising, so a challenge costs a bounded read however large a flood is. Each reads an index on
 * created_at; a draft decided within the minute no longer counts, which the bound tolerates.
 */
export async function joinsSince(db: Db, since: string, ceiling: number): Promise<number> {
  const recent = db.selectFrom('participants').select('id').where('created_at', '>=', since).limit(ceiling)
  return counted(db, recent)
}

export async function draftsSince(db: Db, since: string, ceiling: number): Promise<number> {
  const recent = db
    .selectFrom('drafts')
    .select('id')
    .where('state', '=', 'pending')
    .where('created_at', '>=', since)
    .limit(ceiling)
  return counted(db, recent)
}

async function counted<T extends keyof Schema>(
  db: Db,
  recent: SelectQueryBuilder<Schema, T, { id: string }>,
): Promise<number> {
  const row = await db
    .selectFrom(recent.as('recent'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
