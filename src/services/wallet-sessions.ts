import type { ServiceContext } from './context.ts'
import { iso } from './clock.ts'
import { ServiceError } from './errors.ts'
import { type SessionRow } from '../store/wallet/write.ts'
import { findSession } from '../store/wallet/read.ts'

/** The page's session cookie: __Host-<service>_wallet (spec, Authentication 8). */
export const SESSION_COOKIE = '__Host-clearing_wallet'

/** What the wallet and services actions copy from the request: the page's cookie, as session_token. */
export const SESSION_FROM_COOKIE = { cookies: { [SESSION_COOKIE]: 'session_token' } } as const

/**
 * A live wallet session (known, not signed out, not expired at ctx.now), or 403 session_invalid. An
 * unknown token is a guess, counted in the caller's abuse bucket (core/key-guard.ts); a page still
 * holding its own expired or signed-out token is not.
 */
export async function requireSession(ctx: ServiceContext, token: string): Promise<SessionRow> {
  const row = await findSession(ctx.db, ctx.services.secrets.digest(token))
  if (!row || row.revoked_at !== null || row.expires_at <= iso(ctx.now)) {
    throw new ServiceError('session_invalid', 'The wallet session is unknown, expired or signed out: sign in again.', {
      guess: !row,
    })
  }
  return row
}
