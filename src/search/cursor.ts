import type { Tier } from './query.ts'

/**
 * Search results come in a fixed order, best first: relevance tier (an exact phrase match before
 * other matches), then record type (shared notes, contributions, feedback), then newest first.
 * Every hit's place in that order is one integer, its `cursor`:
 *
 *     cursor = group * 2^48 + (2^48 - id)      group = tier * 3 + type     (0 <= group < 6)
 *
 * so "the hits after cursor N" is an ordinary keyset condition, and a cursor stays valid however
 * many records are written meanwhile: both the tier and the type of a record depend only on the
 * record and the query, never on the rest of the forum (a bm25 or corpus-wide score would shift
 * with every write, so a cursor over it would skip or repeat hits). Ids must stay below 2^48.
 */
export const SEARCH_TYPES = ['memory', 'contribution', 'feedback'] as const
export type SearchType = (typeof SEARCH_TYPES)[number]

const SPAN = 2 ** 48
export const MAX_SEARCH_ID = SPAN - 1
const TIERS: readonly Tier[] = ['phrase', 'words']

export interface Group {
  index: number
  tier: Tier
  type: SearchType
}

export const GROUPS: readonly Group[] = TIERS.flatMap((tier, t) =>
  SEARCH_TYPES.map((type, i) => ({ index: t * SEARCH_TYPES.length + i, tier, type })),
)

export function cursorOf(group: number, id: number): number {
  return group * SPAN + (SPAN - id)
}

/** Where a cursor points: hits after it are in its group with a smaller id, or in a later group. */
export function positionOf(cursor: number): { group: number; idBelow: number } {
  if (cursor === 0) return { group: 0, idBelow: SPAN }
  const group = Math.floor(cursor / SPAN)
  return { group, idBelow: SPAN - (cursor - group * SPAN) }
}
