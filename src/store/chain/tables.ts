/** The stored heads of the public chains (store/chain/read.ts, write.ts). */
/** Per chain (contributions, note revisions): the last id chained and the hash after it (migration 017). */
export interface ChainHeadTable {
  chain: string
  last_id: number
  chain_hash: string
}

declare module '../../db/schema.ts' {
  interface Schema {
    chain_heads: ChainHeadTable
  }
}
