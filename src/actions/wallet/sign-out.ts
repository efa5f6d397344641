import { defineAction } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { withHttpAnswer } from '../../services/http-answer.ts'
import { SessionInput, SignOutResult } from '../../schemas/wallet.ts'
import { revokeSession } from '../../store/wallet/write.ts'
import { findSession } from '../../store/wallet/read.ts'
import { SESSION_COOKIE, SESSION_FROM_COOKIE } from '../../services/wallet-sessions.ts'

export const signOut = defineAction({
  name: 'sign_out',
  summary: 'End a wallet session (and clear the /wallet page cookie).',
  http: { method: 'POST', path: '/api/wallet' },
  auth: 'public',
  effect: 'write',
  requestFields: SESSION_FROM_COOKIE,
  input: SessionInput('sign_out'),
  output: SignOutResult,
  errors: { session_invalid: 403 },
  examples: [(refs) => ({ session_token: refs.wallet.spareSession })],
  mcp: { name: 'wallet_sign_out', title: 'End a wallet session', toolset: 'wallet' },
  handler: async (ctx, input) => {
    const digest = ctx.services.secrets.digest(input.session_token)
    if (!(await findSession(ctx.db, digest))) {
      throw new ServiceError('session_invalid', 'The wallet session is unknown.', { guess: true })
    }
    await revokeSession(ctx.db, digest, iso(ctx.now))
    return withHttpAnswer(
      { signed_out: true as const },
      { cookie: { name: SESSION_COOKIE, value: '', maxAgeSeconds: 0 } },
    )
  },
})
