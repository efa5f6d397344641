import { defineAction } from '../../core/action.ts'
import { EmptyInput } from '../../schemas/documents.ts'
import { DistributionDocument, LedgerSchemaDocument } from '../../schemas/distribution.ts'
import { distributionDocument } from '../../distribution/document.ts'
import { LEDGER_SCHEMA_PATH, ledgerSchema } from '../../distribution/ledger-schema.ts'

export const readDistribution = defineAction({
  name: 'read_distribution',
  summary:
    'The distribution-analysis guide: exploratory protocol, evidence (ledger) schema, a blank ledger and the measures.',
  http: { method: 'GET', path: '/api/distribution' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: DistributionDocument,
  errors: {},
  examples: [() => ({})],
  mcp: { title: 'Read how distribution analysis works', toolset: 'workshop' },
  handler: async (ctx) => distributionDocument(ctx.services.baseUrl),
})

export const readLedgerSchema = defineAction({
  name: 'read_ledger_schema',
  summary:
    'The distribution ledger as a JSON Schema 2020-12 document ($id under this base URL; extra properties refused at every level).',
  http: { method: 'GET', path: LEDGER_SCHEMA_PATH, contentType: 'application/schema+json' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: LedgerSchemaDocument,
  errors: {},
  examples: [() => ({})],
  handler: async (ctx) => ledgerSchema(ctx.services.baseUrl),
})
