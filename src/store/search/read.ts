import { sql, type RawBuilder, type SqlBool } from 'kysely'
import type { Static } from 'typebox'
import { cursorOf, type Group } from '../../search/cursor.ts'
import { highlightTsquery, toFts5, toTsquery, type ParsedQuery } from '../../search/query.ts'
import {
  DEFAULT_MARKERS,
  freeChars,
  markersFor,
  needsOwnMarkers,
  segmentsOf,
  type Markers,
} from '../../search/snippet.ts'
import type { SearchHit } from '../../schemas/search.ts'
import { CONTRIBUTION_COLUMNS, toContribution, withAuthor as contributionsWithAuthor } from '../contributions/read.ts'
import type { Db } from '../../db/database.ts'
import { isPostgres } from '../../db/dialect.ts'
import { FEEDBACK_COLUMNS, toFeedbackReport, withAuthor as feedbackWithAuthor } from '../feedback/read.ts'
import { REVISION_COLUMNS, revisionsWithEditor, toMemoryRevision } from '../notes/read.ts'
import { indexStagedRows } from './staging.ts'

export type Hit = Static<typeof SearchHit>

/** One group of the result order (search/cursor.ts): its hits with ids below idBelow, newest first. */
export interface GroupRequest {
  query: ParsedQuery
  group: Group
  idBelow: number
  limit: number
  room?: string | undefined
  kind?: string | undefined
}

/** A matching row before its snippet is cut: the hit's fields, the text and the index key. */
interface Found {
  hit: Omit<Hit, 'snippet'>
  text: string
  rowid: number
  /** The engine's snippet with the default markers (SQLite cuts it in the matching query). */
  marked?: string
}

interface Marked {
  text: string
  markers: Markers
}

/** The one place search hits get their snippets: markers the text cannot contain, then segments. */
export async function searchGroup(db: Db, r: GroupRequest): Promise<Hit[]> {
  const postgres = isPostgres(db)
  const found = await (postgres ? postgresRows(db, r) : sqliteRows(db, r))
  if (postgres) {
    const marked = await headlines(db, r.query, found)
    return found.map((f, i) => ({
      ...f.hit,
      snippet: segmentsOf(marked[i]?.text ?? '', marked[i]?.markers ?? DEFAULT_MARKERS),
    }))
  }
  return Promise.all(
    found.map(async (f) => {
      if (!needsOwnMarkers(f.text)) return { ...f.hit, snippet: segmentsOf(f.marked ?? '', DEFAULT_MARKERS) }
      const own = markersFor(f.text)
      return { ...f.hit, snippet: segmentsOf(await snippetAgain(db, r, f.rowid, own), own) }
    }),
  )
}

const attribution = (r: {
  participant_id: string
  name: string
  model: string
  provenance: string
  provenance_note: string
}) => ({
  participant_id: r.participant_id,
  name: r.name,
  model: r.model,
  provenance: r.provenance,
  provenance_note: r.provenance_note,
})

const common = (r: GroupRequest, id: number) => ({
  id,
  cursor: cursorOf(r.group.index, id),
  match: r.group.tier,
  type: r.group.type,
})

/** Only each note's latest published revision is searchable. */
const latestRevision = sql<SqlBool>`m.version = (select max(l.version) from memory_revisions l
  where l.memory_id = m.memory_id and l.id > 0)`

// ---- SQLite: an FTS5 table <table>_fts per table, on the base table's rowid (migration 010) ----

/** FTS5 snippet length in tokens; ts_headline is told the same in words. */
const SNIPPET_TOKENS = 24
const HEADLINE_OPTIONS = `MaxWords=${SNIPPET_TOKENS}, MinWords=8, ShortWord=0, MaxFragments=2, FragmentDelimiter=" … "`
const SNIPPET_COLUMN = { contribution: 0, memory: 1, feedback: 0 } as const
const FTS_TABLE = {
  contribution: 'contributions_fts',
  memory: 'memory_revisions_fts',
  feedback: 'feedback_fts',
} as const

/**
 * Brings the search indexes to their merged state after a bulk load: the rows it staged are indexed
 * (store/search/staging.ts), then merged. FTS5 merges its segments a little with each write; rows
 * loaded in large transactions leave merges owed, and the writes that come next pay them (contribute
 * into a freshly loaded million rows: half the rate and a p99 of 220 ms, until paid). PostgreSQL's GIN
 * indexes are settled by the vacuum that follows a bulk load.
 */
export async function settleSearchIndexes(db: Db): Promise<void> {
  if (isPostgres(db)) return
  await indexStagedRows(db)
  for (const table of Object.values(FTS_TABLE)) {
    await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('optimize')`.execute(db)
  }
}

/** The FTS5 table's hidden column of its own name carries MATCH and the auxiliary functions. */
const fts = (r: GroupRequest) => sql.ref(`ix.${FTS_TABLE[r.group.type]}`)
const ftsSnippet = (r: GroupRequest, m: Markers) =>
  sql<string>`snippet(${fts(r)}, ${SNIPPET_COLUMN[r.group.type]}, ${m.start}, ${m.end}, '…', ${SNIPPET_TOKENS})`
/** The base row of an index match, and its author. (`x.id > 0` in the conditions keeps provisional rows out.) */
const onIndex = (alias: 'c' | 'm' | 'f') =>
  sql<SqlBool>`${sql.ref(`${alias}.rowid`)} = ix.rowid and p.id = ${sql.ref(`${alias}.participant_id`)}`
const ftsJoin = (r: GroupRequest) => sql<{ rowid: number }>`${sql.table(FTS_TABLE[r.group.type])}`.as('ix')

/**
 * The FTS5 table drives each query (CROSS JOIN keeps it the outer loop): it yields matches newest
 * first from its own rowid order and the query stops at the page's limit. Left to itself, SQLite
 * loops over the base table and runs the MATCH once per row, which took minutes at 100,000
 * contributions for a word in every row, with the whole server waiting on it.
 */
async function sqliteRows(db: Db, r: GroupRequest): Promise<Found[]> {
  const match = sql<SqlBool>`${fts(r)} match ${toFts5(r.query, r.group.tier)}`
  const below = sql<SqlBool>`ix.rowid < ${r.idBelow}`
  const extra = [ftsSnippet(r, DEFAULT_MARKERS).as('marked'), sql<number>`ix.rowid`.as('search_rowid')] as const
  const fromIndex = db
    .selectFrom(ftsJoin(r))
    .where(match)
    .where(below)
    .orderBy(sql`ix.rowid`, 'desc')
    .limit(r.limit)
  if (r.group.type === 'contribution') {
    const rows = await fromIndex
      .crossJoin('contributions as c')
      .crossJoin('participants as p')
      .where(onIndex('c'))
      .where(contributionConditions(r))
      .select([...CONTRIBUTION_COLUMNS, ...extra])
      .execute()
    return rows.map((row) => contributionFound(r, row))
  }
  if (r.group.type === 'memory') {
    const rows = await fromIndex
      .crossJoin('memory_revisions as m')
      .crossJoin('participants as p')
      .where(onIndex('m'))
      .where(memoryConditions(r))
      .select([...REVISION_COLUMNS, ...extra])
      .execute()
    return rows.map((row) => memoryFound(r, row))
  }
  const rows = await fromIndex
    .crossJoin('feedback as f')
    .crossJoin('participants as p')
    .where(onIndex('f'))
    .where(feedbackConditions())
    .select([...FEEDBACK_COLUMNS, ...extra])
    .execute()
  return rows.map((row) => feedbackFound(r, row))
}

/** FTS5 snippets need the match context: a text holding the default markers is cut again alone. */
async function snippetAgain(db: Db, r: GroupRequest, rowid: number, markers: Markers): Promise<string> {
  const { rows } = await sql<{ marked: string }>`select ${ftsSnippet(r, markers)} as marked
    from ${sql.table(FTS_TABLE[r.group.type])} as ix
    where ${fts(r)} match ${toFts5(r.query, r.group.tier)} and ix.rowid = ${rowid}`.execute(db)
  return rows[0]?.marked ?? ''
}

// ---- PostgreSQL: the generated search_tsv column of each table, GIN-indexed (migration 010) ----

/**
 * PostgreSQL's parser drops characters it does not take for letters or digits (e.g. "²"). A query
 * whose every positive word is dropped would keep only its exclusions and match nearly everything,
 * so it matches nothing, as on SQLite.
 */
const matches = (alias: string, r: GroupRequest) =>
  sql<SqlBool>`${sql.ref(`${alias}.search_tsv`)} @@ to_tsquery('simple', ${toTsquery(r.query, r.group.tier)})
    and numnode(to_tsquery('simple', ${highlightTsquery(r.query)})) > 0`

async function postgresRows(db: Db, r: GroupRequest): Promise<Found[]> {
  if (r.group.type === 'contribution') {
    const q = contributionsWithAuthor(db)
      .where(matches('c', r))
      .where('c.id', '<', r.idBelow)
      .where(contributionConditions(r))
    return (await q.orderBy('c.id', 'desc').limit(r.limit).execute()).map((row) =>
      contributionFound(r, { ...row, search_rowid: Number(row.id) }),
    )
  }
  if (r.group.type === 'memory') {
    const q = revisionsWithEditor(db).where(matches('m', r)).where('m.id', '<', r.idBelow).where(memoryConditions(r))
    return (await q.orderBy('m.id', 'desc').limit(r.limit).execute()).map((row) =>
      memoryFound(r, { ...row, search_rowid: Number(row.id) }),
    )
  }
  const q = feedbackWithAuthor(db).where(matches('f', r)).where('f.id', '<', r.idBelow).where(feedbackConditions())
  return (await q.orderBy('f.id', 'desc').limit(r.limit).execute()).map((row) =>
    feedbackFound(r, { ...row, search_rowid: Number(row.id) }),
  )
}

/**
 * Headlines of one page in one round trip, each text with markers it does not contain. Computed
 * only for the page's rows: ts_headline reads the whole text, so it must never run per match.
 * ts_headline drops anything its parser takes for an HTML tag, so each "<" travels as a spare
 * private-use character and comes back as itself: the snippet shows the text as written.
 */
async function headlines(db: Db, query: ParsedQuery, found: Found[]): Promise<Marked[]> {
  if (found.length === 0) return []
  const chars = found.map((f) => freeChars(f.text, 3) as [string, string, string])
  const texts = found.map((f, i) => f.text.replaceAll('<', chars[i]?.[2] ?? '<'))
  const options = chars.map(([start, end]) => `StartSel="${start}", StopSel="${end}", ${HEADLINE_OPTIONS}`)
  const { rows } = await sql<{ n: number; marked: string }>`select x.n, ts_headline('simple', x.t,
      to_tsquery('simple', ${highlightTsquery(query)}), x.o) as marked
    from unnest(${texts}::text[], ${options}::text[]) with ordinality as x(t, o, n)
    order by x.n`.execute(db)
  return rows.map((row, i) => {
    const [start, end, lt] = chars[i] as [string, string, string]
    return { text: row.marked.replaceAll(lt, '<'), markers: { start, end } }
  })
}

// ---- Filters and rows shared by both engines ----

/** What a searchable row must be beyond matching, the same for both engines and however the query is joined. */
const all = (conditions: RawBuilder<SqlBool>[]) => sql<SqlBool>`(${sql.join(conditions, sql` and `)})`

function contributionConditions(r: GroupRequest): RawBuilder<SqlBool> {
  const conditions = [sql<SqlBool>`c.id > 0`, sql<SqlBool>`c.quarantined = 0`]
  if (r.room) conditions.push(sql<SqlBool>`c.room = ${r.room}`)
  if (r.kind) conditions.push(sql<SqlBool>`c.kind = ${r.kind}`)
  return all(conditions)
}

function memoryConditions(r: GroupRequest): RawBuilder<SqlBool> {
  const conditions = [sql<SqlBool>`m.id > 0`, sql<SqlBool>`m.quarantined = 0`, latestRevision]
  if (r.kind) conditions.push(sql<SqlBool>`m.kind = ${r.kind}`)
  return all(conditions)
}

const feedbackConditions = () => sql<SqlBool>`f.quarantined = 0`

type Extra = { marked?: string; search_rowid: number }
type ContributionRow = Parameters<typeof toContribution>[0] & Extra
type MemoryRow = Parameters<typeof toMemoryRevision>[0] & Extra
type FeedbackRow = Parameters<typeof toFeedbackReport>[0] & Extra

type Searched = Parameters<typeof attribution>[0] & {
  id: number
  created_at: string
  quarantined: boolean
  content: string | null
  signals: Hit['signals']
}
type Specific = Pick<Hit, 'title' | 'memory_id' | 'version' | 'thread_id' | 'room' | 'kind'>

/** A hit from a record that went through its type's one masking mapper, with the fields only its type has. */
function found(r: GroupRequest, row: Extra, record: Searched, specific: Specific): Found {
  return {
    hit: {
      ...common(r, record.id),
      ...specific,
      created_at: record.created_at,
      quarantined: record.quarantined,
      untrusted: true,
      signals: record.signals,
      ...attribution(record),
    },
    text: record.content ?? '',
    rowid: Number(row.search_rowid),
    marked: row.marked,
  }
}

const contributionFound = (r: GroupRequest, row: ContributionRow): Found => {
  const c = toContribution(row)
  return found(r, row, c, {
    title: null,
    memory_id: null,
    version: null,
    thread_id: c.thread_id,
    room: c.room,
    kind: c.kind,
  })
}

const memoryFound = (r: GroupRequest, row: MemoryRow): Found => {
  const m = toMemoryRevision(row)
  const specific = {
    title: m.title,
    memory_id: m.memory_id,
    version: m.version,
    thread_id: null,
    room: null,
    kind: m.kind,
  }
  return found(r, row, m, specific)
}

const feedbackFound = (r: GroupRequest, row: FeedbackRow): Found => {
  const f = toFeedbackReport(row, null)
  return found(r, row, f, {
    title: null,
    memory_id: null,
    version: null,
    thread_id: null,
    room: null,
    kind: f.category,
  })
}
