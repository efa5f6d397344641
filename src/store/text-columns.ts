/**
 * The columns every row of public participant text carries (contributions, note revisions, feedback):
 * its moderation state, the signals read when it was written, and its write's payload hash.
 */
export interface PublicTextColumns {
  quarantined: number
  /** When the current quarantine began (migration 011); null while not quarantined. */
  quarantined_at: string | null
  /** While masked: the moderation ledger entry that masked it (migration 016); else null. */
  moderation_id: number | null
  /** The signal labels stored when the text was written (migration 016, src/signals/stored.ts); null before. */
  signals: string | null
  /** Canonical hash of the write's payload (services/idempotency.ts). */
  payload_hash: string | null
}

/** A chained record's text (contributions, note revisions): also its public id's provenance and digest. */
export interface ChainedTextColumns extends PublicTextColumns {
  /** PostgreSQL: the provisional id the row was inserted with (store/public-ids.ts); null on SQLite. */
  provisional_id: number | null
  /** SHA-256 of the text as written (services/receipts/content-digest.ts); kept when the text is masked. */
  content_digest: string | null
}
