import { clip, type FieldReader } from './fields.ts'
import { pointer, type JsonObject } from './findings.ts'
import { auditTemplate } from './templates.ts'
import { ACTIVITIES, COMMITMENT_STATUSES, EVIDENCE_STATUSES, QUALIFIERS } from './vocabulary.ts'

const EVIDENCE_FIELDS = ['id', 'status', 'locator', 'qualifiers', 'note']
const CLAIM_FIELDS = ['id', 'text', 'evidence_ids', 'qualifiers', 'contradiction_ids']
const COMMITMENT_FIELDS = ['id', 'task', 'status', 'receipt']
/** Evidence in these states was not looked at, so a claim resting on it is flagged. */
const UNEXAMINED = new Set(['cited_only', 'not_checked', 'unavailable'])

interface Claim {
  index: number
  id: string | undefined
  contradictions: string[]
}

/**
 * Checks an audit record's declared links and statuses: cited evidence ids exist, statuses and
 * qualifiers are known values, contradictions are named both ways, required fields are present.
 * It does not check factual truth or whether evidence entails a claim.
 */
export function auditRecord(record: JsonObject, read: FieldReader): void {
  read.version(record, [])
  read.unknownFields(record, Object.keys(auditTemplate()), [])
  const requested = read.text(record, 'requested_activity', [])
  const observed = read.text(record, 'observed_activity', [])
  read.known(requested, ACTIVITIES, pointer('requested_activity'), 'activity')
  read.known(observed, ACTIVITIES, pointer('observed_activity'), 'activity')
  if (requested && observed && requested !== observed) {
    read.findings.warning(pointer('observed_activity'), 'The observed activity differs from the requested one.')
  }
  if (Object.hasOwn(record, 'note') && typeof record.note !== 'string') {
    read.findings.error(pointer('note'), 'Must be a string.')
  }
  const evidence = checkEvidence(record, read)
  const cited = new Set<string>()
  const claims = checkClaims(record, read, evidence, cited)
  if (claims) checkContradictions(claims, read)
  for (const [id, item] of evidence) {
    if (id !== '' && !cited.has(id))
      read.findings.info(pointer('evidence', item.index), `Evidence "${clip(id)}" is cited by no claim.`)
  }
  checkCommitments(record, read)
}

function checkEvidence(record: JsonObject, read: FieldReader): Map<string, { index: number; status?: string }> {
  const byId = new Map<string, { index: number; status?: string }>()
  for (const [i, item] of read.objects(record, 'evidence', []) ?? []) {
    const base = ['evidence', i]
    read.unknownFields(item, EVIDENCE_FIELDS, base)
    const id = read.text(item, 'id', base)
    const status = read.text(item, 'status', base)
    read.known(status, EVIDENCE_STATUSES, pointer(...base, 'status'), 'evidence status')
    const examined = status === 'inspected' || status === 'reproduced'
    const locator = read.text(item, 'locator', base, examined ? null : 'is empty: say where the evidence can be found')
    if (locator !== undefined && locator.trim() === '' && examined) {
      read.findings.warning(
        pointer(...base, 'locator'),
        `Evidence marked "${status}" has no locator, so nobody can find it again.`,
      )
    }
    read.allKnown(read.strings(item, 'qualifiers', base), QUALIFIERS, [...base, 'qualifiers'], 'qualifier')
    if (Object.hasOwn(item, 'note') && typeof item.note !== 'string')
      read.findings.error(pointer(...base, 'note'), 'Must be a string.')
    if (id === undefined) continue
    if (byId.has(id)) read.findings.error(pointer(...base, 'id'), `Duplicate evidence id "${clip(id)}".`)
    else byId.set(id, { index: i, ...(status === undefined ? {} : { status }) })
  }
  return byId
}

function checkClaims(
  record: JsonObject,
  read: FieldReader,
  evidence: Map<string, { index: number; status?: string }>,
  cited: Set<string>,
): Claim[] | undefined {
  const items = read.objects(record, 'claims', [])
  if (!items) return undefined
  const claims: Claim[] = []
  const seen = new Set<string>()
  for (const [i, item] of items) {
    const base = ['claims', i]
    read.unknownFields(item, CLAIM_FIELDS, base)
    const id = read.text(item, 'id', base)
    if (id !== undefined && seen.has(id))
      read.findings.error(pointer(...base, 'id'), `Duplicate claim id "${clip(id)}".`)
    if (id !== undefined) seen.add(id)
    read.text(item, 'text', base, 'is empty: state the claim')
    const evidenceIds = read.strings(item, 'evidence_ids', base)
    if (evidenceIds?.length === 0)
      read.findings.warning(pointer(...base, 'evidence_ids'), 'The claim cites no evidence.')
    evidenceIds?.forEach((ref, j) => {
      const path = pointer(...base, 'evidence_ids', j)
      const found = evidence.get(ref)
      cited.add(ref)
      if (!found) read.findings.error(path, `Cites evidence "${clip(ref)}", which the record does not declare.`)
      else if (found.status && UNEXAMINED.has(found.status)) {
        read.findings.warning(path, `Rests on evidence "${clip(ref)}" whose status is "${found.status}".`)
      }
    })
    read.allKnown(read.strings(item, 'qualifiers', base), QUALIFIERS, [...base, 'qualifiers'], 'qualifier')
    claims.push({ index: i, id, contradictions: read.strings(item, 'contradiction_ids', base) ?? [] })
  }
  return claims
}

/** Contradictions must name claims of the record, never the claim itself, and be named both ways. */
function checkContradictions(claims: Claim[], read: FieldReader): void {
  const byId = new Map<string, Claim>()
  for (const claim of claims) if (claim.id !== undefined && !byId.has(claim.id)) byId.set(claim.id, claim)
  for (const claim of claims) {
    claim.contradictions.forEach((ref, j) => {
      const path = pointer('claims', claim.index, 'contradiction_ids', j)
      const other = byId.get(ref)
      if (ref === claim.id) read.findings.error(path, 'A claim cannot contradict itself.')
      else if (!other)
        read.findings.error(path, `Names claim "${clip(ref)}" as a contradiction, which the record does not declare.`)
      else if (claim.id !== undefined && !other.contradictions.includes(claim.id)) {
        read.findings.error(
          pointer('claims', other.index, 'contradiction_ids'),
          `Claim "${clip(claim.id)}" names claim "${clip(ref)}" as contradicting it, but "${clip(ref)}" does not name "${clip(claim.id)}" back.`,
        )
      }
    })
  }
}

function checkCommitments(record: JsonObject, read: FieldReader): void {
  const seen = new Set<string>()
  for (const [i, item] of read.objects(record, 'commitments', []) ?? []) {
    const base = ['commitments', i]
    read.unknownFields(item, COMMITMENT_FIELDS, base)
    const id = read.text(item, 'id', base)
    if (id !== undefined && seen.has(id))
      read.findings.error(pointer(...base, 'id'), `Duplicate commitment id "${clip(id)}".`)
    if (id !== undefined) seen.add(id)
    read.text(item, 'task', base)
    const status = read.text(item, 'status', base)
    read.known(status, COMMITMENT_STATUSES, pointer(...base, 'status'), 'commitment status')
    const receipt = read.text(
      item,
      'receipt',
      base,
      status === 'done' ? null : 'is empty: say what shows the work was done',
    )
    if (status === 'done' && receipt !== undefined && receipt.trim() === '') {
      read.findings.warning(pointer(...base, 'receipt'), 'A commitment marked done has no receipt.')
    }
  }
}
