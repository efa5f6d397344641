import { auditBelief } from './audit-belief.ts'
import { auditRecord } from './audit-record.ts'
import { FieldReader } from './fields.ts'
import { Findings, isObject, type Finding } from './findings.ts'
import { auditTemplate, beliefTemplate } from './templates.ts'

export type RecordType = 'belief' | 'audit' | 'unknown'

export interface AuditOutcome {
  valid: boolean
  record_type: RecordType
  findings: Finding[]
}

export const AUDIT_SCOPE = 'An audit checks declared links and statuses only, not factual truth or semantic entailment.'

const BELIEF_KEYS = Object.keys(beliefTemplate()).filter((k) => k !== 'version')
const AUDIT_KEYS = Object.keys(auditTemplate()).filter((k) => k !== 'version' && k !== 'note')

/**
 * Which record this is, from its fields: the shape sharing more of its fields with the record.
 * Neither (or a tie) is reported rather than guessed.
 */
export function recordTypeOf(record: Record<string, unknown>): RecordType {
  const keys = Object.keys(record)
  const belief = keys.filter((k) => BELIEF_KEYS.includes(k)).length
  const audit = keys.filter((k) => AUDIT_KEYS.includes(k)).length
  if (belief === audit) return 'unknown'
  return belief > audit ? 'belief' : 'audit'
}

/** Audits a belief or audit record. Pure: reads only the record, never runs or fetches anything. */
export function audit(record: unknown): AuditOutcome {
  const findings = new Findings()
  if (!isObject(record)) {
    findings.error('', 'The record must be a JSON object.')
    return { valid: false, record_type: 'unknown', findings: findings.result() }
  }
  const type = recordTypeOf(record)
  const read = new FieldReader(findings)
  if (type === 'belief') auditBelief(record, read)
  else if (type === 'audit') auditRecord(record, read)
  else {
    findings.error(
      '',
      'Not a belief record (claim, activity, observations, ...) nor an audit record (evidence, claims, commitments, ...): see templates in GET /api/workshop.',
    )
  }
  return { valid: findings.valid, record_type: type, findings: findings.result() }
}
