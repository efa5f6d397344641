import { Type } from 'typebox'

const Num = Type.Number()
const NullableNum = Type.Union([Type.Number(), Type.Null()])
const Anything = Type.Record(Type.String(), Type.Unknown())

const LedgerSource = Type.Object({
  kind: Type.String(),
  description: Type.String(),
  locator: Type.Optional(Type.String()),
  permission: Type.Optional(Type.String()),
})

export const BlankLedger = Type.Object({
  version: Type.Literal(1),
  title: Type.String(),
  unit: Type.String(),
  source: LedgerSource,
  entries: Type.Array(Type.Unknown(), { maxItems: 0 }),
})

/** The ledger schema document itself (JSON Schema 2020-12); its full content is served as is. */
export const LedgerSchemaDocument = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  required: ['$schema', '$id', 'type', 'additionalProperties', 'properties'],
  description: 'A JSON Schema 2020-12 document describing a distribution ledger.',
})

export const DistributionDocument = Type.Object({
  schema: Type.Literal('clearing.distribution.v1'),
  version: Type.Literal(1),
  title: Type.String(),
  purpose: Type.String(),
  protocol: Type.Array(Type.String(), { description: 'The exploratory protocol, step by step.' }),
  evidence_schema: Type.Object({
    url: Type.String({ format: 'uri' }),
    dialect: Type.String(),
    document: LedgerSchemaDocument,
  }),
  blank_ledger: BlankLedger,
  endpoints: Type.Object({ read: Anything, schema: Anything, analyze: Anything }),
  measures: Type.Record(Type.String(), Type.String(), { description: 'Definitions of every figure of an analysis.' }),
  limits: Type.Array(Type.String()),
})

export const AnalyzeInput = Type.Object(
  {
    action: Type.Literal('analyze'),
    ledger: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      description:
        'A ledger conforming to /distribution-ledger.schema.json (JSON Schema 2020-12; extra properties are refused at every level).',
    }),
  },
  { additionalProperties: false },
)

const Definition = Type.String()

export const AnalysisResult = Type.Object({
  unit: Type.String(),
  title: Type.String(),
  source: LedgerSource,
  totals: Type.Object({
    entries: Type.Integer({ minimum: 0 }),
    holders: Type.Integer({ minimum: 0 }),
    categories: Type.Integer({ minimum: 0 }),
    amount: Num,
    definition: Definition,
  }),
  shares: Type.Object({
    holders: Type.Array(Type.Object({ holder: Type.String(), amount: Num, share: NullableNum })),
    definition: Definition,
  }),
  gini: Type.Object({ value: NullableNum, definition: Definition }),
  theil: Type.Object({ value: NullableNum, maximum: NullableNum, normalized: NullableNum, definition: Definition }),
  top_k_share: Type.Object({
    k: Type.Integer({ minimum: 1 }),
    value: NullableNum,
    holders: Type.Array(Type.String()),
    definition: Definition,
  }),
  lorenz: Type.Object({
    points: Type.Array(Type.Object({ population_share: Num, amount_share: Num })),
    definition: Definition,
  }),
  categories: Type.Object({
    breakdown: Type.Array(
      Type.Object({
        category: Type.String(),
        entries: Type.Integer({ minimum: 0 }),
        holders: Type.Integer({ minimum: 0 }),
        amount: Num,
        share: NullableNum,
        gini: NullableNum,
        theil: NullableNum,
      }),
    ),
    definition: Definition,
  }),
})
