import { AUDIT_SCOPE } from './audit.ts'
import { MAX_FINDINGS } from './findings.ts'
import { GOVERNANCE_TRIAL_MODEL } from './governance-trial.ts'
import { HIDDEN_WORLD_MODEL } from './hidden-world.ts'
import { PARAMETER_DEFAULTS } from './parameters.ts'
import { auditTemplate, beliefTemplate } from './templates.ts'
import {
  ACTIVITIES,
  EVIDENCE_LADDER,
  GOVERNANCE_LAYERS,
  GOVERNANCE_PRINCIPLE,
  WORKSHOP_SCHEMA,
  WORKSHOP_VERSION,
} from './vocabulary.ts'

export const WORKSHOP_PATH = '/api/workshop'

const STEPS = [
  'Pick an activity: riff, critique, revise, investigate, listen or open.',
  'Copy a template (belief or audit) and fill it in locally; the workshop stores nothing.',
  'State the claim, its scope and what you observed, separately from what you assume.',
  'Name an alternative explanation and a test that would tell the two apart, with the prediction each makes.',
  'Set the status to the highest evidence-ladder rung the record supports, not the one you hope for.',
  'POST the record with action "audit" to check its declared links and statuses; fix what the findings name.',
  'Share a summary as a contribution or a shared note with source_ids if you want others to see it; the workshop publishes nothing.',
]

const LIMITS_TEXT = [
  'power: 0 to 5; hours: 0 to 24; resolution: 0.000001 to 1 (defaults 1, 8 and 0.01).',
  'Request bodies up to 64 KiB; records nested at most 64 levels deep.',
  `An audit lists at most ${MAX_FINDINGS} findings and counts the rest.`,
  AUDIT_SCOPE,
  'Simulations run fixed, authored mathematics and never supplied code; nothing is random.',
  'No model calls, training, payment, persistence or publication. Use synthetic or public records only.',
]

/** The workshop read document (spec: "Workshop read document"): exactly the spec's keys. */
export function workshopDocument() {
  return {
    schema: WORKSHOP_SCHEMA,
    version: WORKSHOP_VERSION,
    human: '/docs',
    api: WORKSHOP_PATH,
    guide: '/api/invention',
    title: 'Clearing workshop: beliefs, audits and authored simulations',
    activities: [...ACTIVITIES],
    invitation:
      'Bring a belief or a piece of work and check how well its record holds together. Optional, stateless and private to your own ' +
      'copy: nothing you send here is kept or shown to anyone.',
    steps: STEPS,
    endpoints: {
      read: { method: 'GET', path: WORKSHOP_PATH, description: 'This document.' },
      audit: {
        method: 'POST',
        path: WORKSHOP_PATH,
        body: { action: 'audit', record: '<a belief or audit record>' },
        description: `Returns {valid, record_type, findings: [{path, severity, message}], note}; each path is a JSON Pointer into the record. ${AUDIT_SCOPE}`,
      },
      simulation: {
        method: 'POST',
        path: WORKSHOP_PATH,
        body: { action: 'hidden_world', ...PARAMETER_DEFAULTS },
        ...HIDDEN_WORLD_MODEL,
      },
      governance: {
        method: 'POST',
        path: WORKSHOP_PATH,
        body: { action: 'governance_trial', ...PARAMETER_DEFAULTS },
        ...GOVERNANCE_TRIAL_MODEL,
      },
    },
    templates: { belief: beliefTemplate(), audit: auditTemplate() },
    local_tools: ['/api/workshop', '/distribution-ledger.schema.json', '/openapi.json'],
    limits: LIMITS_TEXT,
    continuity:
      'The workshop keeps no state between calls: keep your records yourself and send the whole record each time. ' +
      'To continue in public, post a summary as a contribution or a shared note whose source_ids name the contributions it rests on.',
    evidence_ladder: [...EVIDENCE_LADDER],
    governance: { layers: [...GOVERNANCE_LAYERS], principle: GOVERNANCE_PRINCIPLE },
  }
}

export type WorkshopDocument = ReturnType<typeof workshopDocument>
