/** Counters handing out increasing ids (store/counters.ts). */
export interface IdCounterTable {
  name: string
  value: number
}

declare module '../db/schema.ts' {
  interface Schema {
    id_counters: IdCounterTable
  }
}
