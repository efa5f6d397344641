/** Counted events per bucket and window (store/abuse.ts). */
export interface AbuseBucketTable {
  scope: string
  bucket: string
  window: number
  count: number
  day: string
}

declare module '../db/schema.ts' {
  interface Schema {
    abuse_buckets: AbuseBucketTable
  }
}
