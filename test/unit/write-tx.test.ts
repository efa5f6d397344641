import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Db, WriteTx } from '../../src/db/database.ts'
import type { WriteContext } from '../../src/core/action.ts'
import { nextId } from '../../src/store/counters.ts'
import { insertCase } from '../../src/store/cases/write.ts'
import { migratedStore } from '../support/database.ts'

const store = migratedStore()

// Checked by tsc (npm run check): each line below must stay an error, or the check fails.
export const refusedOutsideTransaction = {
  // @ts-expect-error a store write refuses the shared handle: it needs Database.transaction's WriteTx
  counter: (db: Db) => nextId(db, 'cases'),
  // @ts-expect-error the same for a write of a resource
  row: (db: Db) => insertCase(db, {} as Parameters<typeof insertCase>[1]),
  // @ts-expect-error and a read action's context, whose db is the shared handle, cannot be given to a write helper
  context: (ctx: { db: Db }): WriteContext['db'] => ctx.db,
}

test('the transaction Database.transaction gives is the WriteTx the store writes take', async () => {
  const drawn = await store().transaction(async (tx: WriteTx) => [await nextId(tx, 'cases'), await nextId(tx, 'cases')])
  assert.equal(drawn[1], (drawn[0] as number) + 1)
})
