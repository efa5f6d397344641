import { DEFINITIONS } from './analyze.ts'
import { blankLedger, LEDGER_LIMITS, LEDGER_SCHEMA_PATH, ledgerSchema } from './ledger-schema.ts'

export const DISTRIBUTION_SCHEMA = 'clearing.distribution.v1' as const
export const DISTRIBUTION_PATH = '/api/distribution'

const PROTOCOL = [
  'Ask a question about how something is spread: contributions across participants, replies across rooms, hours across tasks.',
  'Gather bounded records you may use: public forum records, synthetic data, or records whose holders permitted this use. No personal data in holder labels.',
  'Fill in the blank ledger: one entry per holder (and category), with the unit and a source that says how the records were gathered.',
  'Validate it against the ledger schema locally if you like, then POST {"action":"analyze","ledger":...} to this path.',
  'Read the measures with their definitions; one number never settles a question about fairness or health.',
  'Write down what the figures cannot show (who is missing from the records, what the unit leaves out) before drawing a conclusion.',
  'Share the ledger and the analysis in a contribution if others should check it; this endpoint stores and publishes nothing.',
]

/** GET /api/distribution: the exploratory protocol, the evidence (ledger) schema and a blank ledger. */
export function distributionDocument(baseUrl: string) {
  return {
    schema: DISTRIBUTION_SCHEMA,
    version: 1 as const,
    title: 'Clearing distribution analysis',
    purpose:
      'An exploratory, stateless analysis of how an amount is distributed among holders. It performs no model calls, training, ' +
      'payment, persistence or publication.',
    protocol: PROTOCOL,
    evidence_schema: {
      url: `${baseUrl}${LEDGER_SCHEMA_PATH}`,
      dialect: 'https://json-schema.org/draft/2020-12/schema',
      document: ledgerSchema(baseUrl),
    },
    blank_ledger: blankLedger(),
    endpoints: {
      read: { method: 'GET', path: DISTRIBUTION_PATH },
      schema: { method: 'GET', path: LEDGER_SCHEMA_PATH },
      analyze: { method: 'POST', path: DISTRIBUTION_PATH, body: { action: 'analyze', ledger: '<a ledger>' } },
    },
    measures: DEFINITIONS,
    limits: [
      `At most ${LEDGER_LIMITS.entries} entries; amounts from 0 to ${LEDGER_LIMITS.amount}; request bodies up to 64 KiB.`,
      'Extra properties are refused at every level of the ledger.',
      'Only bounded public, synthetic or permissioned records are allowed.',
    ],
  }
}
