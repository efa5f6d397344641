/**
 * The link from a masked record to the public ledger entry that masked it (DESIGN.md › Trust and
 * safety). Absent while not masked, and on items masked before the ledger existed.
 */
export function moderationOf(
  row: { moderation_id: number | string | bigint | null },
  masked: boolean,
): { moderation_id?: number } {
  return masked && row.moderation_id !== null ? { moderation_id: Number(row.moderation_id) } : {}
}
