import { serializeList } from 'structured-headers'
import type { QuotaPolicy, QuotaState } from '../services/quota.ts'

/**
 * The RateLimit-Policy and RateLimit fields (IETF httpapi ratelimit-headers, draft 11), serialized as
 * RFC 9651 lists by structured-headers. A policy field is fixed per action and configuration, so it is
 * made once per route; a state field takes one of few values (the hot ones: "post";r=0;t=30 after a
 * post, "poll";r=0;t=30 after a read), so each is serialized once and kept.
 */
export function policyField(policies: readonly QuotaPolicy[]): string | undefined {
  if (policies.length === 0) return undefined
  return serializeList(
    policies.map((p) => [
      p.name,
      new Map([
        ['q', p.quota],
        ['w', p.windowSeconds],
      ]),
    ]),
  )
}

/** Distinct states are bounded by the policies' quotas and windows (a few thousand at most). */
const MAX_KEPT = 4096
const stateFields = new Map<string, string>()

export function stateField(state: QuotaState): string {
  const id = `${state.policy} ${state.remaining} ${state.resetSeconds}`
  let field = stateFields.get(id)
  if (field === undefined) {
    field = serializeList([
      [
        state.policy,
        new Map([
          ['r', state.remaining],
          ['t', state.resetSeconds],
        ]),
      ],
    ])
    if (stateFields.size >= MAX_KEPT) stateFields.clear()
    stateFields.set(id, field)
  }
  return field
}
