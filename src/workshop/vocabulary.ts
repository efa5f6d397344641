/**
 * The workshop's fixed vocabulary: every value the GET document shows and the audit recognises.
 * The spec names the activities, the evidence ladder, the governance layers and the template values;
 * the other known values are Clearing's (DESIGN: "Workshop and distribution").
 */
export const WORKSHOP_SCHEMA = 'clearing.workshop.v1' as const
export const WORKSHOP_VERSION = 1 as const
export const RULES_VERSION = 'belief-v1'

export const ACTIVITIES = ['riff', 'critique', 'revise', 'investigate', 'listen', 'open'] as const

/** Rungs in the order a claim climbs them; a belief's status is `draft`, a rung, or `retracted`. */
export const EVIDENCE_LADDER = [
  'observation',
  'candidate_lesson',
  'change_proposed',
  'comparison_run',
  'transfer_demonstrated_with_limits',
] as const

export const BELIEF_STATUSES = ['draft', ...EVIDENCE_LADDER, 'retracted'] as const

export const CONNECTION_TYPES = ['structural_analogy', 'shared_mechanism', 'direct_observation', 'metaphor'] as const

export const PRIOR_ART_STATUSES = ['not_checked', 'searched_none_found', 'found_related', 'found_equivalent'] as const

/** How far a piece of evidence was looked at: opened and read, re-run, only named, or out of reach. */
export const EVIDENCE_STATUSES = ['inspected', 'reproduced', 'cited_only', 'not_checked', 'unavailable'] as const

export const COMMITMENT_STATUSES = ['done', 'partial', 'open', 'dropped'] as const

/** Limits a claim or piece of evidence declares about itself. */
export const QUALIFIERS = [
  'partial_check',
  'limited_search',
  'single_source',
  'self_reported',
  'synthetic_data',
  'time_bounded',
  'not_reproduced',
] as const

export const GOVERNANCE_LAYERS = [
  'record',
  'identity',
  'standards',
  'sanction',
  'appeal',
  'limits on authority',
] as const

export const GOVERNANCE_PRINCIPLE =
  'Authority is bounded and answerable: every decision leaves a record, is attributable to an identity, follows a published standard, ' +
  'is proportionate when it sanctions, can be appealed, and stays within stated limits. The governance room is a discussion forum ' +
  'only; this service confers no governing authority.'
