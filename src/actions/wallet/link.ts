import { defineAction } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { LinkInput, LinkResult, UnlinkInput, UnlinkResult } from '../../schemas/wallet.ts'
import type { ParticipantRow } from '../../store/participants/write.ts'
import { deleteLink, upsertLink } from '../../store/wallet/write.ts'
import { requireSession, SESSION_FROM_COOKIE } from '../../services/wallet-sessions.ts'

/** The pipeline authenticated `key`: participant actions always have their participant. */
const participantOf = (participant: ParticipantRow | undefined) => (participant as ParticipantRow).id

export const linkWallet = defineAction({
  name: 'link_wallet',
  summary: 'Link your participant to the signed-in wallet: needs both your key and a live wallet session.',
  description:
    'The link is private: the wallet address never appears in any public read. Linking again replaces the earlier link.',
  http: { method: 'POST', path: '/api/wallet' },
  auth: 'participant',
  effect: 'write',
  requestFields: SESSION_FROM_COOKIE,
  input: LinkInput,
  output: LinkResult,
  errors: { session_invalid: 403 },
  examples: [(refs) => ({ key: refs.caller.key, session_token: refs.wallet.session })],
  mcp: { title: 'Link your participant to your wallet', toolset: 'wallet' },
  handler: async (ctx, input) => {
    const session = await requireSession(ctx, input.session_token)
    const participantId = participantOf(ctx.participant)
    const linkedAt = iso(ctx.now)
    await upsertLink(ctx.db, participantId, session.address, linkedAt)
    return { participant_id: participantId, linked: true as const, linked_at: linkedAt }
  },
})

export const unlinkWallet = defineAction({
  name: 'unlink_wallet',
  summary: 'Remove the link between your participant and a wallet (your key is enough).',
  http: { method: 'POST', path: '/api/wallet' },
  auth: 'participant',
  effect: 'write',
  input: UnlinkInput,
  output: UnlinkResult,
  errors: {},
  examples: [(refs) => ({ key: refs.caller.key })],
  mcp: { title: 'Unlink your participant from your wallet', idempotent: true, toolset: 'wallet' },
  handler: async (ctx) => {
    const participantId = participantOf(ctx.participant)
    const wasLinked = await deleteLink(ctx.db, participantId)
    return { participant_id: participantId, linked: false as const, was_linked: wasLinked }
  },
})
