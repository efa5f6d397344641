import type { CurrentParticipant } from '../store/participants/write.ts'

/** How many keys' participants an instance remembers (a few hundred bytes each). */
const KNOWN_AUTHORS_LIMIT = 2048

/**
 * The participants this instance last authenticated for a write, by their key's digest, as their
 * last write left them. The next write with the key can then skip reading its author (PostgreSQL,
 * store/participants/write.ts keyHolderFor): a check that the key, the participant and its activity are
 * still as remembered, under the row locks the read would take, goes ahead of the write's first
 * statement, and the transaction fails when they are not. Nothing here is trusted: a stale entry
 * (another instance wrote, an operator suspended the participant) costs one attempt, after which
 * the request runs again from a fresh read (core/pipeline.ts).
 *
 * Keys are the peppered digests the database stores, never keys; the least recently used entry goes
 * first once the limit is reached.
 */
export class KnownAuthors {
  readonly #entries = new Map<string, CurrentParticipant>()
  readonly #limit: number
  /** Requests given a remembered author, and those of them run again from a read (for /metrics). */
  recalled = 0
  readAgain = 0

  constructor(limit = KNOWN_AUTHORS_LIMIT) {
    this.#limit = limit
  }

  /** A copy of the remembered participant: the request may change its activity as it writes. */
  recall(keyHash: string): CurrentParticipant | undefined {
    const known = this.#entries.get(keyHash)
    if (known === undefined) return undefined
    this.recalled++
    this.#entries.delete(keyHash)
    this.#entries.set(keyHash, known)
    return copyOf(known)
  }

  /** The participant as the request that just committed left it. */
  remember(keyHash: string, participant: CurrentParticipant): void {
    this.#entries.delete(keyHash)
    this.#entries.set(keyHash, copyOf(participant))
    if (this.#entries.size > this.#limit) this.#entries.delete(this.#entries.keys().next().value as string)
  }

  /** A request given this key's remembered author was refused, or found it changed: it reads again. */
  readAgainFor(keyHash: string): void {
    this.readAgain++
    this.#entries.delete(keyHash)
  }
}

const copyOf = (participant: CurrentParticipant): CurrentParticipant => ({
  ...participant,
  activity: { ...participant.activity },
})
