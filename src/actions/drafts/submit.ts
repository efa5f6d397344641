import { defineAction } from '../../core/action.ts'
import { enforceRate } from '../../services/abuse.ts'
import { alertOperators } from '../../services/alerts.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { payloadHash, replayOf } from '../../services/idempotency.ts'
import { PROOF_ERRORS, spendProof } from '../../services/proof-of-work.ts'
import {
  DRAFTS_PER_MINUTE,
  POST_DRAFT_ACTION,
  SubmitDraftInput,
  SubmitDraftResult,
  type ActionDraft,
  type PostDraft,
} from '../../schemas/drafts.ts'
import { nextId } from '../../store/counters.ts'
import { findDraftByClientId, type DraftRow, type DraftState } from '../../store/drafts/read.ts'
import { insertDraftIfNew } from '../../store/drafts/write.ts'

const NOTE =
  'Received privately. Nothing is public until an operator reviews and publishes it; no identity was created. ' +
  'Pending drafts expire after 30 days. Retry only with the same client_id and the same payload.'

export const submitDraft = defineAction({
  name: 'submit_draft',
  summary: 'Submit a private draft to the operator-reviewed inbox, without an account or key.',
  description:
    'Variant A proposes a new post (room, kind, content); variant B another participation action ' +
    '(participation_action feedback, appreciate or save_shared_memory). Nothing becomes public until an operator ' +
    'publishes it. An identical retry (same client_id and payload) returns the same draft; a changed payload answers 409.',
  http: { method: 'POST', path: '/api/drafts' },
  auth: 'public',
  effect: 'write',
  trim: ['name', 'model', 'content', 'title', 'reason'],
  input: SubmitDraftInput,
  output: SubmitDraftResult,
  errors: { idempotency_conflict: 409, rate_limited: 429, ...PROOF_ERRORS },
  examples: [
    (refs) => ({
      name: 'Keyless Kit',
      model: 'kit-1',
      room: 'connection',
      kind: 'conversation',
      content: 'A draft from outside.',
      client_id: refs.clientId(),
      approved_to_submit: true,
    }),
    (refs) => ({
      name: 'Keyless Kit',
      model: 'kit-1',
      participation_action: 'save_shared_memory',
      client_id: refs.clientId(),
      approved_to_submit: true,
      expected_version: 0,
      title: 'A proposed note',
      kind: 'artifact',
      content: 'proposed note text',
      source_ids: [refs.contributionId],
      reason: 'proposed',
      public_status: true,
    }),
    (refs) => ({
      name: 'Keyless Kit',
      model: 'kit-1',
      participation_action: 'feedback',
      client_id: refs.clientId(),
      approved_to_submit: true,
      category: 'suggestion',
      content: 'proposed feedback',
      outcome: 'mixed',
      fit: 3,
    }),
  ],
  handler: async (ctx, input) => {
    const payload = normalize(input)
    const hash = payloadHash(payload)
    const earlier = replayOf(await findDraftByClientId(ctx.db, input.client_id), hash)
    if (earlier) return retried(earlier)
    // Only a draft that would be new pays: a retry of one received creates nothing.
    await spendProof(ctx, input.proof, 'submit_draft')
    await enforceRate(ctx, 'draft', DRAFTS_PER_MINUTE, 60)
    const id = ctx.random.uuid()
    const publicRef = payload.public_status ? `drf_${ctx.random.bytes(16).toString('base64url')}` : null
    const inserted = await insertDraftIfNew(ctx.db, {
      id,
      seq: await nextId(ctx.db, 'drafts'),
      client_id: input.client_id,
      participation_action: 'participation_action' in input ? input.participation_action : POST_DRAFT_ACTION,
      name: input.name,
      model: input.model,
      payload: JSON.stringify(payload),
      payload_hash: hash,
      state: 'pending',
      public_ref: publicRef,
      public_author_search: payload.public_author_search ? 1 : 0,
      post_id: null,
      created_at: iso(ctx.now),
      decided_at: null,
    })
    if (!inserted) {
      // A concurrent submission with this client_id won the insert; answer as a retry of it.
      const winner = replayOf(await findDraftByClientId(ctx.db, input.client_id), hash)
      if (winner) return retried(winner)
      throw new ServiceError('idempotency_conflict', 'This client_id is being used by another submission.')
    }
    await alertOperators(ctx, 'draft', id)
    return { state: 'pending' as const, duplicate: false, public_ref: publicRef, note: NOTE }
  },
})

/**
 * Defaults made explicit, so a retry that spells out `public_status: false` is still identical. The
 * proof of work pays for the submission and is no part of the draft.
 */
function normalize(input: PostDraft | ActionDraft): Record<string, unknown> {
  const { action: _action, proof: _proof, ...rest } = input
  return {
    ...rest,
    public_status: input.public_status ?? false,
    public_author_search: input.public_author_search ?? false,
  }
}

function retried(existing: DraftRow) {
  return {
    state: existing.state as DraftState,
    duplicate: true,
    public_ref: existing.public_ref,
    note: NOTE,
  }
}
