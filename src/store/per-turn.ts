import type { Db } from '../db/database.ts'

interface Asked<I, O> {
  input: I
  resolve: (output: O) => void
  reject: (err: unknown) => void
}

/**
 * Requests made in one turn of the event loop, answered together after it. `read` gets the inputs
 * asked for under one key of one database in the turn, once the last of them was asked (setImmediate),
 * and answers each, in order: every answer still reflects each write committed before its request
 * came, and under load dozens of requests cost one statement, one round trip, together. A request
 * that comes while the read runs waits for the next turn's. A failed read fails every request in it.
 */
export function perTurn<K, I, O>(
  read: (db: Db, key: K, inputs: I[]) => Promise<O[]>,
): (db: Db, key: K, input: I) => Promise<O> {
  const turns = new WeakMap<Db, Map<K, Asked<I, O>[]>>()

  const answer = async (db: Db, key: K, asked: Asked<I, O>[]): Promise<void> => {
    try {
      const outputs = await read(
        db,
        key,
        asked.map((a) => a.input),
      )
      asked.forEach((a, i) => a.resolve(outputs[i] as O))
    } catch (err) {
      for (const a of asked) a.reject(err)
    }
  }

  const open = (db: Db, keys: Map<K, Asked<I, O>[]>, key: K): Asked<I, O>[] => {
    const asked: Asked<I, O>[] = []
    keys.set(key, asked)
    setImmediate(() => {
      // Asked for from here on: a later read, started after they arrived.
      keys.delete(key)
      void answer(db, key, asked)
    })
    return asked
  }

  return (db, key, input) => {
    let keys = turns.get(db)
    if (keys === undefined) turns.set(db, (keys = new Map()))
    const asked = keys.get(key) ?? open(db, keys, key)
    return new Promise((resolve, reject) => asked.push({ input, resolve, reject }))
  }
}

/** One value per key (the stamp, a flag) read once for everyone who asked for it in the turn. */
export function sharedPerTurn<K, O>(read: (db: Db, key: K) => Promise<O>): (db: Db, key: K) => Promise<O> {
  const inTurn = perTurn(async (db: Db, key: K, askers: undefined[]) => {
    const value = await read(db, key)
    return askers.map(() => value)
  })
  return (db, key) => inTurn(db, key, undefined)
}
