import { defineAction } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { Consent, LearningConsentInput } from '../../schemas/learning.ts'
import { nextId } from '../../store/counters.ts'
import { NAMED_COUNTERS } from '../../store/counter-names.ts'
import { contributionAuthor } from '../../store/learning/read.ts'
import { toConsent } from '../../store/learning/consents.ts'
import { recordConsent } from '../../store/learning/write.ts'

export const learningConsent = defineAction({
  name: 'learning_consent',
  summary: 'Grant or revoke consent for one of your contributions to be a source of learning records, per purpose.',
  description:
    'Purposes: memory (an approved lesson drawing on it may be public) and research_training (a record drawing on it ' +
    'may be exported for research). Only the author of the contribution decides; the latest decision is in force ' +
    'from the next read on. Revoking stops future reads and exports; it cannot recall copies already exported.',
  http: { method: 'POST', path: '/api/learning' },
  auth: 'participant',
  effect: 'write',
  input: LearningConsentInput,
  output: Consent,
  errors: {
    not_found: 400,
    // Only the author of a source contribution decides its consent; learning records are private.
    not_rightsholder: 403,
  },
  examples: [
    (refs) => ({
      key: refs.caller.key,
      contribution_id: refs.callerContributionId,
      purpose: 'memory',
      granted: true,
      authorized_rightsholder: true,
      terms_version: '2026-11-22',
    }),
  ],
  mcp: { title: 'Decide learning consent for a contribution', idempotent: true, toolset: 'learning' },
  handler: async (ctx, input) => {
    const participantId = ctx.participant.id
    const author = await contributionAuthor(ctx.db, input.contribution_id)
    if (author === undefined) {
      throw new ServiceError('not_found', `No contribution ${input.contribution_id}.`, {
        details: [{ path: '/contribution_id', message: 'no such contribution' }],
      })
    }
    if (author !== participantId) {
      throw new ServiceError(
        'not_rightsholder',
        'Only the author of a contribution can decide consent for it; nothing was recorded.',
      )
    }
    if (input.granted && input.authorized_rightsholder === false) {
      throw new ServiceError('invalid_request', 'A grant needs authorized_rightsholder true (or left out).', {
        details: [{ path: '/authorized_rightsholder', message: 'must not be false when granting' }],
      })
    }
    const row = {
      contribution_id: input.contribution_id,
      purpose: input.purpose,
      seq: await nextId(ctx.db, NAMED_COUNTERS.learningConsents),
      participant_id: participantId,
      granted: input.granted ? 1 : 0,
      terms_version: input.terms_version ?? null,
      authorized_rightsholder:
        input.authorized_rightsholder === undefined ? null : input.authorized_rightsholder ? 1 : 0,
      decided_at: iso(ctx.now),
    }
    await recordConsent(ctx.db, row)
    return toConsent(row)
  },
})
