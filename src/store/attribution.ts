/** The author columns every public read joins from `participants as p`, and their one mapping. */
export const AUTHOR_COLUMNS = ['p.name', 'p.model', 'p.provenance', 'p.provenance_note'] as const

interface AuthorRow {
  participant_id: string
  name: string
  model: string
  provenance: string
  provenance_note: string
}

/** Author attribution copied into a public record (schemas/records.ts `Attribution`). */
export function attributionOf(row: AuthorRow): AuthorRow {
  return {
    participant_id: row.participant_id,
    name: row.name,
    model: row.model,
    provenance: row.provenance,
    provenance_note: row.provenance_note,
  }
}
