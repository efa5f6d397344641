import { filled, type FieldReader } from './fields.ts'
import { pointer, type JsonObject } from './findings.ts'
import { beliefTemplate } from './templates.ts'
import {
  ACTIVITIES,
  BELIEF_STATUSES,
  CONNECTION_TYPES,
  EVIDENCE_LADDER,
  PRIOR_ART_STATUSES,
  RULES_VERSION,
} from './vocabulary.ts'

const TEXT_FIELDS = [
  'activity',
  'claim',
  'scope',
  'translation',
  'connection_type',
  'alternative',
  'discriminating_test',
  'prediction',
  'counterexample',
  'revision',
  'status',
] as const
const LIST_FIELDS = ['observations', 'assumptions', 'translation_losses'] as const
type Filled = Partial<Record<(typeof TEXT_FIELDS)[number] | (typeof LIST_FIELDS)[number], string | string[]>>

/**
 * What each rung of the evidence ladder needs the record to declare, cumulatively: a status may
 * claim a rung only when the fields that rung rests on are filled in.
 */
export const LADDER_REQUIREMENTS: Record<(typeof EVIDENCE_LADDER)[number], Array<keyof Filled>> = {
  observation: ['observations'],
  candidate_lesson: ['claim', 'scope'],
  change_proposed: ['revision'],
  comparison_run: ['alternative', 'discriminating_test', 'prediction'],
  transfer_demonstrated_with_limits: ['translation', 'translation_losses', 'counterexample'],
}

/** Checks a belief record's declared fields and statuses (never whether the claim is true). */
export function auditBelief(record: JsonObject, read: FieldReader): void {
  read.version(record, [])
  read.unknownFields(record, Object.keys(beliefTemplate()), [])
  const values: Filled = {}
  for (const field of TEXT_FIELDS) values[field] = read.text(record, field, [])
  for (const field of LIST_FIELDS) values[field] = read.strings(record, field, [])
  read.known(values.activity as string | undefined, ACTIVITIES, pointer('activity'), 'activity')
  read.known(
    values.connection_type as string | undefined,
    CONNECTION_TYPES,
    pointer('connection_type'),
    'connection_type',
  )
  read.known(values.status as string | undefined, BELIEF_STATUSES, pointer('status'), 'status')
  checkLadder(values, read)
  checkPriorArt(record, read)
  checkProvenance(record, read)
}

function checkLadder(values: Filled, read: FieldReader): void {
  const status = values.status
  if (status === 'retracted' && !filled(values.revision)) {
    read.findings.warning(pointer('revision'), 'A retracted belief should say in "revision" why it was retracted.')
  }
  const rung = EVIDENCE_LADDER.indexOf(status as (typeof EVIDENCE_LADDER)[number])
  if (rung < 0) return
  for (const step of EVIDENCE_LADDER.slice(0, rung + 1)) {
    for (const field of LADDER_REQUIREMENTS[step]) {
      if (values[field] === undefined || filled(values[field])) continue
      read.findings.error(
        pointer(field),
        `Status "${status}" claims the rung "${step}", which needs "${field}" filled in.`,
      )
    }
  }
}

function checkPriorArt(record: JsonObject, read: FieldReader): void {
  const priorArt = read.object(record, 'prior_art', [])
  if (!priorArt) return
  const base = ['prior_art']
  read.unknownFields(priorArt, ['status', 'search_scope', 'sources'], base)
  const status = read.text(priorArt, 'status', base)
  read.known(status, PRIOR_ART_STATUSES, pointer(...base, 'status'), 'prior_art status')
  read.text(priorArt, 'search_scope', base, 'is empty: say where you looked (or that you did not)')
  const sources = read.strings(priorArt, 'sources', base)
  if (sources === undefined) return
  if ((status === 'found_related' || status === 'found_equivalent') && !filled(sources)) {
    read.findings.error(pointer(...base, 'sources'), `prior_art status "${status}" names no sources.`)
  }
  if (status === 'not_checked' && filled(sources)) {
    read.findings.warning(
      pointer(...base, 'status'),
      'Sources are listed but the status says prior art was not checked.',
    )
  }
}

function checkProvenance(record: JsonObject, read: FieldReader): void {
  const provenance = read.object(record, 'provenance', [])
  if (!provenance) return
  const base = ['provenance']
  read.unknownFields(provenance, ['model', 'skill_version', 'rules_version'], base)
  read.text(provenance, 'model', base)
  read.text(provenance, 'skill_version', base)
  const rules = read.text(provenance, 'rules_version', base)
  if (rules !== undefined && rules !== RULES_VERSION) {
    read.findings.error(
      pointer(...base, 'rules_version'),
      `Unknown rules_version; this audit checks "${RULES_VERSION}".`,
    )
  }
}
