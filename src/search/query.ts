import { ServiceError } from '../services/errors.ts'

/**
 * The search query language, parsed once and written out for each engine (SQLite FTS5 MATCH text
 * and a PostgreSQL tsquery). Like a web search box:
 *   words           every word must appear (any order)
 *   "a phrase"      the words must appear together, in this order
 *   word*           prefix: words starting with "word" (at least 2 characters before the *)
 *   -word -"a b"    exclude records containing the word or phrase
 *   a OR b          either (OR binds tighter than the implicit AND: `a OR b c` is (a or b) and c)
 * Text is split into words at anything that is not a letter or digit, and lowercased, the same way
 * both engines split stored text; a word like `state-of-the-art` becomes the phrase of its parts.
 * Every token written into either engine's syntax is letters and digits only, so participant
 * input can never change the structure of the engine query.
 */
export interface Token {
  text: string
  prefix: boolean
}

/** One word (one token) or one phrase (several tokens in order). */
export type Clause = Token[]

export interface ParsedQuery {
  /** Every group must match; a group matches when any of its clauses does. */
  groups: Clause[][]
  /** Records matching any of these are left out. */
  excluded: Clause[]
  /** All positive tokens in order, when the query can rank exact phrase matches first. */
  phrase: Clause | undefined
}

export const QUERY_LIMITS = { clauses: 16, prefixMinimum: 2 } as const

const WORD = /[\p{L}\p{N}]+/gu
const PIECE = /(-?)"([^"]*)"?|(\S+)/g

function tokensOf(text: string, prefix: boolean): Token[] {
  const words = text.normalize('NFC').toLowerCase().match(WORD) ?? []
  return words.map((word, i) => ({ text: word, prefix: prefix && i === words.length - 1 }))
}

function invalid(message: string): ServiceError {
  return new ServiceError('invalid_request', message, { details: [{ path: '/q', message }] })
}

/** Parses a search box query; refuses one with nothing to look for. */
export function parseQuery(q: string): ParsedQuery {
  const groups: Clause[][] = []
  const excluded: Clause[] = []
  let joinNext = false
  let clauses = 0
  for (const match of q.matchAll(PIECE)) {
    const [, minusOfPhrase, phraseText, bare] = match
    if (bare === 'OR') {
      joinNext = groups.length > 0
      continue
    }
    const negated = minusOfPhrase === '-' || (bare !== undefined && bare.startsWith('-') && bare.length > 1)
    const raw = phraseText ?? (negated ? (bare ?? '').slice(1) : (bare ?? ''))
    const prefix = phraseText === undefined && raw.endsWith('*')
    const clause = tokensOf(raw, prefix)
    if (clause.length === 0) continue
    const last = clause.at(-1) as Token
    if (last.prefix && last.text.length < QUERY_LIMITS.prefixMinimum) {
      throw invalid(`A prefix needs at least ${QUERY_LIMITS.prefixMinimum} letters or digits before the *.`)
    }
    if (++clauses > QUERY_LIMITS.clauses) throw invalid(`At most ${QUERY_LIMITS.clauses} words or phrases.`)
    if (negated) excluded.push(clause)
    else if (joinNext) (groups.at(-1) as Clause[]).push(clause)
    else groups.push([clause])
    joinNext = false
  }
  if (groups.length === 0) throw invalid('The query has no word to look for (exclusions alone match nothing).')
  const single = groups.every((g) => g.length === 1)
  const positive = groups.flatMap((g) => g.flat())
  return { groups, excluded, phrase: single && positive.length > 1 ? positive : undefined }
}

/** The relevance tiers of a query, best first: an exact phrase match, then every other match. */
export type Tier = 'phrase' | 'words'

export function tiersOf(query: ParsedQuery): Tier[] {
  return query.phrase ? ['phrase', 'words'] : ['words']
}

// ---- SQLite FTS5 ----

const ftsToken = (t: Token) => `"${t.text}"${t.prefix ? '*' : ''}`
const ftsClause = (c: Clause) => c.map(ftsToken).join(' + ')
const ftsAll = (q: ParsedQuery) => q.groups.map((g) => `(${g.map(ftsClause).join(' OR ')})`).join(' AND ')

/** FTS5 MATCH text for one tier: the phrase tier, or every match outside it. */
export function toFts5(query: ParsedQuery, tier: Tier): string {
  const positive = tier === 'phrase' && query.phrase ? ftsClause(query.phrase) : ftsAll(query)
  const outside = tier === 'words' && query.phrase ? [query.phrase] : []
  return [`(${positive})`, ...[...query.excluded, ...outside].map((c) => `NOT (${ftsClause(c)})`)].join(' ')
}

// ---- PostgreSQL tsquery ----

const tsToken = (t: Token) => `'${t.text}'${t.prefix ? ':*' : ''}`
const tsClause = (c: Clause) => (c.length === 1 ? tsToken(c[0] as Token) : `(${c.map(tsToken).join(' <-> ')})`)
const tsAll = (q: ParsedQuery) => q.groups.map((g) => `(${g.map(tsClause).join(' | ')})`).join(' & ')

/** tsquery text (for to_tsquery('simple', ...)) for one tier. */
export function toTsquery(query: ParsedQuery, tier: Tier): string {
  const positive = tier === 'phrase' && query.phrase ? tsClause(query.phrase) : tsAll(query)
  const outside = tier === 'words' && query.phrase ? [query.phrase] : []
  return [`(${positive})`, ...[...query.excluded, ...outside].map((c) => `!${tsClause(c)}`)].join(' & ')
}

/** tsquery text matching any positive clause: what a headline highlights. */
export function highlightTsquery(query: ParsedQuery): string {
  return query.groups.flatMap((g) => g.map(tsClause)).join(' | ')
}
