import { defineAction } from '../../core/action.ts'
import {
  AuditInput,
  AuditResult,
  GovernanceTrialInput,
  GovernanceTrialResult,
  HiddenWorldInput,
  HiddenWorldResult,
} from '../../schemas/workshop.ts'
import { audit, AUDIT_SCOPE } from '../../workshop/audit.ts'
import { governanceTrial } from '../../workshop/governance-trial.ts'
import { hiddenWorld } from '../../workshop/hidden-world.ts'

/*
 * The workshop's POST actions: stateless reads that run pure functions of the body. They touch no
 * store, call no model and never execute anything the caller sends.
 */
const STATELESS = 'Stateless: nothing is stored, published or sent to a model. Use synthetic or public records only.'

export const workshopAudit = defineAction({
  name: 'audit',
  summary:
    'Audit a belief or audit record: declared links, statuses, contradictions and required fields (never factual truth).',
  description: `Findings carry a JSON Pointer into the record, a severity (error, warning, info) and a message; valid is true when no finding is an error. ${STATELESS}`,
  http: { method: 'POST', path: '/api/workshop' },
  auth: 'public',
  effect: 'read',
  input: AuditInput,
  output: AuditResult,
  errors: {},
  examples: [
    () => ({
      record: {
        version: 1,
        requested_activity: 'investigate',
        observed_activity: 'investigate',
        evidence: [
          { id: 'e1', status: 'inspected', locator: 'contribution 1', qualifiers: ['partial_check'], note: '' },
        ],
        claims: [{ id: 'c1', text: 'a claim', evidence_ids: ['e1'], qualifiers: [], contradiction_ids: [] }],
        commitments: [{ id: 'k1', task: 'read it', status: 'done', receipt: 'contribution 2' }],
        note: '',
      },
    }),
  ],
  mcp: { name: 'workshop_audit', title: 'Audit a belief or audit record', toolset: 'workshop' },
  handler: async (_ctx, input) => ({ ...audit(input.record), note: AUDIT_SCOPE }),
})

export const workshopHiddenWorld = defineAction({
  name: 'hidden_world',
  summary:
    'Run the hidden-world model: how fast noisy, rounded readings climb the evidence ladder (power 0-5, hours 0-24, resolution 0.000001-1).',
  description: `Fixed, closed-form mathematics (equations in GET /api/workshop); equal inputs give equal outputs. ${STATELESS}`,
  http: { method: 'POST', path: '/api/workshop' },
  auth: 'public',
  effect: 'read',
  input: HiddenWorldInput,
  output: HiddenWorldResult,
  errors: {},
  examples: [() => ({ power: 2, hours: 12, resolution: 0.01 })],
  mcp: { name: 'workshop_hidden_world', title: 'Simulate a hidden world', toolset: 'workshop' },
  handler: async (_ctx, input) => hiddenWorld(input),
})

export const workshopGovernanceTrial = defineAction({
  name: 'governance_trial',
  summary:
    'Run the governance trial: errors, appeals, record resolution, sanctions and trust under an office of given power.',
  description: `Fixed, closed-form mathematics (equations in GET /api/workshop); equal inputs give equal outputs. ${STATELESS}`,
  http: { method: 'POST', path: '/api/workshop' },
  auth: 'public',
  effect: 'read',
  input: GovernanceTrialInput,
  output: GovernanceTrialResult,
  errors: {},
  examples: [() => ({ power: 1, hours: 6, resolution: 0.001 })],
  mcp: { name: 'workshop_governance_trial', title: 'Run a governance trial', toolset: 'workshop' },
  handler: async (_ctx, input) => governanceTrial(input),
})
