import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { audit, recordTypeOf } from '../../src/workshop/audit.ts'
import { MAX_FINDINGS, pointer, type Finding } from '../../src/workshop/findings.ts'
import { auditTemplate, beliefTemplate } from '../../src/workshop/templates.ts'

const errors = (findings: Finding[]) => findings.filter((f) => f.severity === 'error')
const at = (findings: Finding[], path: string) => findings.filter((f) => f.path === path)
const errorAt = (findings: Finding[], path: string) => errors(findings).some((f) => f.path === path)

/** A belief every rung of which is supported: the audit should find nothing wrong with it. */
function goodBelief() {
  return {
    ...beliefTemplate(),
    activity: 'investigate',
    claim: 'Replies within an hour make a second post twice as likely.',
    scope: 'Participants of this forum in January, public records only.',
    observations: ['Contributions 12, 14 and 19 came after replies within the hour.'],
    assumptions: ['Self-reported names identify the same participant over time.'],
    translation: 'From this forum to forums of similar size.',
    connection_type: 'shared_mechanism',
    translation_losses: ['Other forums have no 30-second rule.'],
    alternative: 'Active participants both get replies sooner and post more.',
    discriminating_test: 'Compare participants matched on activity before their first reply.',
    prediction: 'The gap persists after matching if the claim holds.',
    counterexample: 'Participants 3 and 7 posted again without any reply.',
    revision: 'Welcome replies should come early.',
    prior_art: { status: 'found_related', search_scope: 'forum studies 2020-2025', sources: ['doi:10.1000/example'] },
    provenance: { model: 'example-model', skill_version: '1', rules_version: 'belief-v1' },
    status: 'transfer_demonstrated_with_limits',
  }
}

function goodAuditRecord() {
  return {
    version: 1,
    requested_activity: 'critique',
    observed_activity: 'critique',
    evidence: [
      { id: 'e1', status: 'inspected', locator: 'contribution 12', qualifiers: ['partial_check'], note: '' },
      { id: 'e2', status: 'reproduced', locator: 'contribution 19', qualifiers: [], note: 'ran it twice' },
    ],
    claims: [
      {
        id: 'c1',
        text: 'The fix works.',
        evidence_ids: ['e1', 'e2'],
        qualifiers: ['limited_search'],
        contradiction_ids: ['c2'],
      },
      { id: 'c2', text: 'The fix breaks replies.', evidence_ids: ['e1'], qualifiers: [], contradiction_ids: ['c1'] },
    ],
    commitments: [{ id: 'k1', task: 'Re-run the check', status: 'done', receipt: 'contribution 20' }],
    note: 'checked by hand',
  }
}

describe('audit: belief records', () => {
  test('the template is structurally valid: blanks are noted (info), nothing is wrong', () => {
    const result = audit(beliefTemplate())
    assert.equal(result.record_type, 'belief')
    assert.equal(result.valid, true)
    assert.ok(result.findings.length > 0)
    assert.ok(
      result.findings.every((f) => f.severity === 'info'),
      JSON.stringify(result.findings),
    )
  })

  test('a fully supported belief at the top rung has no errors or warnings', () => {
    const result = audit(goodBelief())
    assert.equal(result.valid, true)
    assert.deepEqual(result.findings, [])
  })

  test('each broken part is an error at its own JSON Pointer', () => {
    const { scope: _scope, ...record } = goodBelief()
    const broken = {
      ...record,
      observations: 'just one',
      activity: 'daydream',
      connection_type: 'vibes',
      prior_art: { status: 'found_equivalent', search_scope: 'x', sources: [] },
      provenance: { model: 'm', skill_version: '1', rules_version: 'belief-v9' },
      status: 'comparison_run',
      discriminating_test: '',
    }
    const { valid, findings } = audit(broken)
    assert.equal(valid, false)
    for (const path of [
      '/scope',
      '/observations',
      '/activity',
      '/connection_type',
      '/prior_art/sources',
      '/provenance/rules_version',
      '/discriminating_test',
    ]) {
      assert.ok(errorAt(findings, path), `an error at ${path}: ${JSON.stringify(findings)}`)
    }
    assert.match(at(findings, '/scope')[0]?.message ?? '', /missing/)
  })

  test('a status must be known, and may claim only a rung its fields support', () => {
    assert.ok(errorAt(audit({ ...beliefTemplate(), status: 'proven' }).findings, '/status'))
    const early = audit({ ...beliefTemplate(), status: 'observation' })
    assert.ok(errorAt(early.findings, '/observations'), 'observation needs observations')
    const lesson = audit({ ...goodBelief(), status: 'candidate_lesson', claim: '  ' })
    assert.ok(errorAt(lesson.findings, '/claim'))
    assert.ok(!errorAt(lesson.findings, '/revision'), 'rungs above the status are not required')
  })

  test('unknown fields are warnings with escaped pointers; a retraction without a reason is a warning', () => {
    const { valid, findings } = audit({ ...goodBelief(), 'a/b~c': 1, status: 'retracted', revision: '' })
    assert.equal(valid, true)
    assert.equal(at(findings, '/a~1b~0c')[0]?.severity, 'warning')
    assert.equal(at(findings, '/revision').find((f) => f.severity === 'warning')?.severity, 'warning')
    assert.equal(pointer('x', 0, 'y/z'), '/x/0/y~1z')
  })
})

describe('audit: audit records', () => {
  test('the template and a well-formed record are valid', () => {
    const template = audit(auditTemplate())
    assert.equal(template.record_type, 'audit')
    assert.equal(template.valid, true, JSON.stringify(template.findings))
    const good = audit(goodAuditRecord())
    assert.equal(good.valid, true)
    assert.deepEqual(good.findings, [])
  })

  test('cited evidence must exist; statuses and qualifiers must be known', () => {
    const record = goodAuditRecord()
    record.claims[0]?.evidence_ids.push('e9')
    record.evidence.push({ id: 'e3', status: 'seen', locator: 'x', qualifiers: ['vibes'], note: '' })
    record.commitments.push({ id: 'k2', task: 't', status: 'maybe', receipt: '' })
    const { valid, findings } = audit(record)
    assert.equal(valid, false)
    assert.ok(errorAt(findings, '/claims/0/evidence_ids/2'))
    assert.ok(errorAt(findings, '/evidence/2/status'))
    assert.ok(errorAt(findings, '/evidence/2/qualifiers/0'))
    assert.ok(errorAt(findings, '/commitments/1/status'))
    assert.equal(at(findings, '/evidence/2')[0]?.severity, 'info', 'uncited evidence is noted')
  })

  test('contradictions must be named both ways, name a declared claim, and never the claim itself', () => {
    const oneWay = goodAuditRecord()
    ;(oneWay.claims[1] as { contradiction_ids: string[] }).contradiction_ids = []
    const result = audit(oneWay)
    assert.equal(result.valid, false)
    const finding = errors(result.findings).find((f) => f.path === '/claims/1/contradiction_ids')
    assert.match(finding?.message ?? '', /"c1".*"c2".*does not name "c1" back/)

    const dangling = goodAuditRecord()
    ;(dangling.claims[0] as { contradiction_ids: string[] }).contradiction_ids = ['c2', 'c7', 'c1']
    const dangled = audit(dangling)
    assert.ok(errorAt(dangled.findings, '/claims/0/contradiction_ids/1'), 'an undeclared claim')
    assert.ok(errorAt(dangled.findings, '/claims/0/contradiction_ids/2'), 'itself')
  })

  test('required fields, duplicate ids, receipts and unexamined evidence', () => {
    const { commitments: _c, ...record } = goodAuditRecord()
    record.evidence.push({ id: 'e1', status: 'not_checked', locator: '', qualifiers: [], note: '' })
    record.claims.push({ id: 'c3', text: 'Unsupported.', evidence_ids: [], qualifiers: [], contradiction_ids: [] })
    const { valid, findings } = audit(record)
    assert.equal(valid, false)
    assert.ok(errorAt(findings, '/commitments'), 'missing commitments')
    assert.ok(errorAt(findings, '/evidence/2/id'), 'duplicate evidence id')
    assert.equal(at(findings, '/claims/2/evidence_ids')[0]?.severity, 'warning', 'cites no evidence')

    const undone = goodAuditRecord()
    undone.commitments[0] = { id: 'k1', task: 't', status: 'done', receipt: '' }
    undone.evidence[0] = { id: 'e1', status: 'unavailable', locator: 'gone', qualifiers: [], note: '' }
    const warned = audit(undone)
    assert.equal(warned.valid, true)
    assert.deepEqual(
      at(warned.findings, '/commitments/0/receipt').map((f) => f.severity),
      ['warning'],
      'one finding: the warning, not also a blank-text note',
    )
    assert.ok(warned.findings.some((f) => f.path === '/claims/0/evidence_ids/0' && f.severity === 'warning'))
  })

  test('wrong types are errors at the item, and the requested and observed activities are compared', () => {
    const record = { ...goodAuditRecord(), observed_activity: 'riff', evidence: [7, { id: 'e1' }], claims: {}, note: 3 }
    const { findings } = audit(record)
    assert.ok(errorAt(findings, '/evidence/0'))
    assert.ok(errorAt(findings, '/evidence/1/status'))
    assert.ok(errorAt(findings, '/claims'))
    assert.ok(errorAt(findings, '/note'))
    assert.equal(at(findings, '/observed_activity')[0]?.severity, 'warning')
  })
})

describe('audit: shape, bounds and determinism', () => {
  test('a non-object or a record of neither shape is an error at the root', () => {
    assert.deepEqual(
      audit([1, 2]).findings.map((f) => [f.path, f.severity]),
      [['', 'error']],
    )
    const neither = audit({ version: 1, note: 'x' })
    assert.equal(neither.record_type, 'unknown')
    assert.equal(neither.valid, false)
    assert.equal(recordTypeOf({ claim: 'x', claims: [], evidence: [] }), 'audit')
  })

  test(`at most ${MAX_FINDINGS} findings are listed, then one note counts the rest`, () => {
    const record = goodAuditRecord()
    record.claims[0] = {
      ...record.claims[0],
      evidence_ids: Array.from({ length: 500 }, (_, i) => `missing-${i}`),
    } as never
    const { valid, findings } = audit(record)
    assert.equal(valid, false)
    assert.equal(findings.length, MAX_FINDINGS + 1)
    assert.match(findings.at(-1)?.message ?? '', /further finding/)
  })

  test('the same record always gives the same findings', () => {
    const record = { ...goodAuditRecord(), extra: true, claims: [{ id: 'c1', evidence_ids: ['x'] }] }
    assert.deepEqual(audit(record), audit(structuredClone(record)))
  })
})
