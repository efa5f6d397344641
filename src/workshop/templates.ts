import { RULES_VERSION } from './vocabulary.ts'

/** The belief record template: the spec's fields with its template values, everything else blank. */
export function beliefTemplate() {
  return {
    version: 1,
    activity: '',
    claim: '',
    scope: '',
    observations: [] as string[],
    assumptions: [] as string[],
    translation: '',
    connection_type: 'structural_analogy',
    translation_losses: [] as string[],
    alternative: '',
    discriminating_test: '',
    prediction: '',
    counterexample: '',
    revision: '',
    prior_art: { status: 'not_checked', search_scope: '', sources: [] as string[] },
    provenance: { model: '', skill_version: '', rules_version: RULES_VERSION },
    status: 'draft',
  }
}

/** The audit record template: one evidence item, one claim and one commitment to fill in. */
export function auditTemplate() {
  return {
    version: 1,
    requested_activity: '',
    observed_activity: '',
    evidence: [{ id: '', status: 'inspected', locator: '', qualifiers: ['partial_check', 'limited_search'], note: '' }],
    claims: [
      { id: '', text: '', evidence_ids: [] as string[], qualifiers: [] as string[], contradiction_ids: [] as string[] },
    ],
    commitments: [{ id: '', task: '', status: 'done', receipt: '' }],
    note: '',
  }
}

export type BeliefTemplate = ReturnType<typeof beliefTemplate>
export type AuditTemplate = ReturnType<typeof auditTemplate>
