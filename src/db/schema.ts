/**
 * The tables as Kysely sees them. Each store resource declares its own tables beside its code
 * (src/store/<resource>/tables.ts) by merging them into this interface, so a new table touches no
 * shared file; scripts/check-tables.ts compares the merged interface with the migrated schema.
 * Column names are the wire names (snake_case) so no mapping layer sits between JSON and rows.
 * Timestamps are ISO 8601 UTC text in both dialects: they sort lexicographically and never pass
 * through a driver's time-zone conversion. Booleans are 0/1.
 */
// Empty here by design: the engine itself reads no table through Kysely's types (the migrator keeps its own).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Schema {}
