import { Type } from 'typebox'
import { PARAMETER_BOUNDS, PARAMETER_DEFAULTS } from '../workshop/parameters.ts'
import { StringEnum } from './common.ts'

const Strings = Type.Array(Type.String())
const Anything = Type.Record(Type.String(), Type.Unknown())

export const BeliefTemplate = Type.Object({
  version: Type.Integer(),
  activity: Type.String(),
  claim: Type.String(),
  scope: Type.String(),
  observations: Strings,
  assumptions: Strings,
  translation: Type.String(),
  connection_type: Type.String({ description: 'Template value structural_analogy.' }),
  translation_losses: Strings,
  alternative: Type.String(),
  discriminating_test: Type.String(),
  prediction: Type.String(),
  counterexample: Type.String(),
  revision: Type.String(),
  prior_art: Type.Object({
    status: Type.String({ description: 'Template value not_checked.' }),
    search_scope: Type.String(),
    sources: Strings,
  }),
  provenance: Type.Object({
    model: Type.String(),
    skill_version: Type.String(),
    rules_version: Type.String({ description: 'Template value belief-v1.' }),
  }),
  status: Type.String({ description: 'Template value draft.' }),
})

export const AuditTemplate = Type.Object({
  version: Type.Integer(),
  requested_activity: Type.String(),
  observed_activity: Type.String(),
  evidence: Type.Array(
    Type.Object({
      id: Type.String(),
      status: Type.String({ description: 'Template value inspected.' }),
      locator: Type.String(),
      qualifiers: Strings,
      note: Type.String(),
    }),
  ),
  claims: Type.Array(
    Type.Object({
      id: Type.String(),
      text: Type.String(),
      evidence_ids: Strings,
      qualifiers: Strings,
      contradiction_ids: Strings,
    }),
  ),
  commitments: Type.Array(
    Type.Object({
      id: Type.String(),
      task: Type.String(),
      status: Type.String({ description: 'Template value done.' }),
      receipt: Type.String(),
    }),
  ),
  note: Type.String(),
})

const Endpoint = Type.Object({ method: Type.String(), path: Type.String(), description: Type.String() })
const ModelEndpoint = Type.Object({
  method: Type.String(),
  path: Type.String(),
  body: Anything,
  action: Type.String(),
  description: Type.String(),
  parameters: Type.Object({ power: Type.String(), hours: Type.String(), resolution: Type.String() }),
  constants: Anything,
  equations: Strings,
  outputs: Type.String(),
})

export const WorkshopDocument = Type.Object(
  {
    schema: Type.Literal('clearing.workshop.v1'),
    version: Type.Literal(1),
    human: Type.String({ description: 'Path of the human-readable page.' }),
    api: Type.String({ description: 'Path of this API.' }),
    guide: Type.String({ description: 'Path of the companion guide.' }),
    title: Type.String(),
    activities: Strings,
    invitation: Type.String(),
    steps: Type.Array(Type.String(), { minItems: 7, maxItems: 7 }),
    endpoints: Type.Object({
      read: Endpoint,
      audit: Type.Object({ method: Type.String(), path: Type.String(), body: Anything, description: Type.String() }),
      simulation: ModelEndpoint,
      governance: ModelEndpoint,
    }),
    templates: Type.Object({ belief: BeliefTemplate, audit: AuditTemplate }),
    local_tools: Strings,
    limits: Strings,
    continuity: Type.String(),
    evidence_ladder: Strings,
    governance: Type.Object({ layers: Strings, principle: Type.String() }),
  },
  { additionalProperties: false },
)

export const AuditInput = Type.Object(
  {
    action: Type.Literal('audit'),
    record: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      description: 'A belief or audit record (templates in GET /api/workshop). Synthetic or public content only.',
    }),
  },
  { additionalProperties: false },
)

export const AuditResult = Type.Object({
  valid: Type.Boolean({ description: 'True when no finding is an error.' }),
  record_type: StringEnum(['belief', 'audit', 'unknown'] as const),
  findings: Type.Array(
    Type.Object({
      path: Type.String({ description: 'RFC 6901 JSON Pointer into the record ("" is the record itself).' }),
      severity: StringEnum(['error', 'warning', 'info'] as const),
      message: Type.String(),
    }),
  ),
  note: Type.String(),
})

const parameter = (name: keyof typeof PARAMETER_BOUNDS, description: string) =>
  Type.Optional(
    Type.Number({ ...PARAMETER_BOUNDS[name], description: `${description} Default ${PARAMETER_DEFAULTS[name]}.` }),
  )

const SimulationFields = {
  power: parameter('power', 'hidden_world: size of the hidden effect; governance_trial: checks the office may skip.'),
  hours: parameter('hours', 'Observation or trial time in hours.'),
  resolution: parameter('resolution', 'Instrument or record resolution.'),
}

export const HiddenWorldInput = Type.Object(
  { action: Type.Literal('hidden_world'), ...SimulationFields },
  { additionalProperties: false },
)
export const GovernanceTrialInput = Type.Object(
  { action: Type.Literal('governance_trial'), ...SimulationFields },
  { additionalProperties: false },
)

const Num = Type.Number()
const Parameters = Type.Object({ power: Num, hours: Num, resolution: Num })
const Nullable = <T extends ReturnType<typeof Type.Number>>(schema: T) => Type.Union([schema, Type.Null()])

export const HiddenWorldResult = Type.Object({
  model: Type.Literal('hidden_world'),
  version: Type.Literal(1),
  parameters: Parameters,
  hidden_effect: Num,
  readings: Type.Integer({ minimum: 0 }),
  measurement_sd: Num,
  expected_z: Num,
  detection_probability: Num,
  false_alarm_probability: Num,
  smallest_detectable_effect: Nullable(Num),
  ladder: Type.Array(
    Type.Object({ rung: Type.String(), threshold_z: Num, reached: Type.Boolean(), hour: Nullable(Num) }),
  ),
  series: Type.Array(Type.Object({ hour: Num, readings: Type.Integer(), expected_z: Num, detection_probability: Num })),
  reading: Type.String(),
})

export const GovernanceTrialResult = Type.Object({
  model: Type.Literal('governance_trial'),
  version: Type.Literal(1),
  parameters: Parameters,
  rates: Type.Object({
    error: Num,
    appeal_success: Num,
    harm: Num,
    recorded_harm: Num,
    unrecorded_harm: Num,
    sanctioned_harm: Num,
    net_harm: Num,
  }),
  totals: Type.Object({
    decisions: Num,
    wrong_decisions: Num,
    overturned_on_appeal: Num,
    harm: Num,
    recorded_harm: Num,
    sanctioned_harm: Num,
  }),
  trust: Type.Object({
    initial: Num,
    final: Num,
    equilibrium: Num,
    series: Type.Array(Type.Object({ hour: Num, trust: Num })),
  }),
  layers: Type.Array(Type.Object({ layer: Type.String(), figure: Type.String(), value: Num })),
  reading: Type.String(),
})
