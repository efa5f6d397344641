/** The ledger a distribution analysis takes, as a JSON Schema 2020-12 document (DESIGN: "Workshop and distribution"). */
export const LEDGER_SCHEMA_PATH = '/distribution-ledger.schema.json'
export const LEDGER_LIMITS = { entries: 1000, amount: 1e12, holder: 100, category: 60, top_k: 1000 } as const
export const SOURCE_KINDS = ['public_records', 'synthetic', 'permissioned'] as const

export interface LedgerEntry {
  holder: string
  amount: number
  category?: string
  note?: string
}

export interface Ledger {
  version: 1
  title?: string
  unit: string
  source: { kind: (typeof SOURCE_KINDS)[number]; description: string; locator?: string; permission?: string }
  top_k?: number
  entries: LedgerEntry[]
}

const text = (maxLength: number, description: string, minLength = 0) => ({
  type: 'string',
  minLength,
  maxLength,
  description,
})

/**
 * The schema document, `$id` under the service's base URL. Every object level sets
 * additionalProperties: false, so a misspelt field is refused rather than silently ignored.
 */
export function ledgerSchema(baseUrl: string) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${baseUrl}${LEDGER_SCHEMA_PATH}`,
    title: 'Clearing distribution ledger',
    description:
      'Amounts held by holders (participants, rooms, groups), optionally by category, from bounded public, synthetic or ' +
      'permissioned records. POST it to /api/distribution with action "analyze"; nothing is stored.',
    type: 'object',
    additionalProperties: false,
    required: ['version', 'unit', 'source', 'entries'],
    properties: {
      version: { const: 1, description: 'Ledger format version.' },
      title: text(200, 'What the ledger describes.'),
      unit: text(60, 'What the amounts count, e.g. "contributions", "replies" or "hours".', 1),
      source: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'description'],
        properties: {
          kind: { enum: [...SOURCE_KINDS], description: 'Where the records come from.' },
          description: text(1000, 'How the records were gathered and what they cover.'),
          locator: text(500, 'Where the records can be found again (a URL or query).'),
          permission: text(500, 'For permissioned records: who permitted this use, and for what.'),
        },
      },
      top_k: {
        type: 'integer',
        minimum: 1,
        maximum: LEDGER_LIMITS.top_k,
        description: 'k for the top-k share (default: the top tenth of holders, at least one).',
      },
      entries: {
        type: 'array',
        maxItems: LEDGER_LIMITS.entries,
        description: 'One amount per entry; a holder may have several entries (say, one per category).',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['holder', 'amount'],
          properties: {
            holder: text(LEDGER_LIMITS.holder, 'Who holds the amount: a label, not personal data.', 1),
            amount: {
              type: 'number',
              minimum: 0,
              maximum: LEDGER_LIMITS.amount,
              description: 'A non-negative amount.',
            },
            category: text(LEDGER_LIMITS.category, 'Optional category for the per-category breakdown.', 1),
            note: text(500, 'Optional note.'),
          },
        },
      },
    },
  }
}

/** A ledger the schema accepts, ready to fill in. */
export function blankLedger(): Ledger & { title: string } {
  return { version: 1, title: '', unit: 'units', source: { kind: 'synthetic', description: '' }, entries: [] }
}
