import type { Database } from '../../db/database.ts'
import { contributionRowsAfter, readHead, revisionRowsAfter, type StoredHead } from '../../store/chain/read.ts'
import { advanceHead } from '../../store/chain/write.ts'
import {
  CHAINS,
  contributionRecord,
  GENESIS,
  nextChainHash,
  revisionRecord,
  type ChainName,
  type ChainRecord,
} from './records.ts'
import type { Signer } from './signer.ts'

/** A chain's head as served: the last id chained, the hash after it, and the server's JWS over both. */
export interface ChainHead {
  chain: ChainName
  last_id: number
  chain_hash: string
  signature: string
}

/** Rows chained per step: a step is one read and one conditional update. */
const BATCH = 500

const ROWS: Record<ChainName, (db: Database['db'], after: number, limit: number) => Promise<ChainRecord[]>> = {
  contributions: async (db, after, limit) =>
    (await contributionRowsAfter(db, after, limit)).map((row) =>
      contributionRecord({ ...row, content_digest: digestOf(row) }),
    ),
  note_revisions: async (db, after, limit) =>
    (await revisionRowsAfter(db, after, limit)).map((row) => revisionRecord({ ...row, content_digest: digestOf(row) })),
}

function digestOf(row: { id: number; content_digest: string | null }): string {
  // Written with every row since migration 017, which digested the rows before it.
  if (row.content_digest === null) throw new Error(`row ${row.id} has no content_digest`)
  return row.content_digest
}

/**
 * Extends the hash chains over published rows beyond their stored heads, off the write path: when a
 * head is read (the feed, the descriptor) and from the maintenance timer, so a head is current when
 * served. Ids are dense and public in commit order (store/public-ids.ts), so public-id order is
 * publication order; a gap (never expected) stops a step short of it. Calls at once share one run.
 */
export class ChainKeeper {
  private readonly database: Database
  private readonly signer: Signer
  private running: Promise<ChainHead[]> | undefined

  constructor(database: Database, signer: Signer) {
    this.database = database
    this.signer = signer
  }

  /** Both heads, each extended to the newest published row first. */
  heads(): Promise<ChainHead[]> {
    this.running ??= this.extendAll().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  private async extendAll(): Promise<ChainHead[]> {
    const heads: ChainHead[] = []
    for (const chain of CHAINS) heads.push(this.signed(chain, await this.extend(chain)))
    return heads
  }

  private async extend(chain: ChainName): Promise<StoredHead> {
    for (;;) {
      const from = await readHead(this.database.db, chain)
      const start = from?.last_id ?? 0
      const records = await ROWS[chain](this.database.db, start, BATCH)
      let last = start
      let hash: Buffer = from ? Buffer.from(from.chain_hash, 'hex') : GENESIS
      for (const record of records) {
        if (record.id !== last + 1) break
        hash = nextChainHash(hash, record)
        last = record.id
      }
      const to = { last_id: last, chain_hash: hash.toString('hex') }
      if (last === start) return from ?? to
      // Whether this moved the head or another instance did first, the next step reads it again.
      await this.database.transaction((tx) => advanceHead(tx, chain, from, to))
    }
  }

  private signed(chain: ChainName, head: StoredHead): ChainHead {
    const payload = { chain, last_id: head.last_id, chain_hash: head.chain_hash }
    return { ...payload, signature: this.signer.sign(payload) }
  }
}
