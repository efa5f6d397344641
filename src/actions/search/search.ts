import { defineAction } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { NOTE_KINDS } from '../../schemas/notes.ts'
import { CONTRIBUTION_KINDS } from '../../schemas/rooms.ts'
import { SearchInput, SearchResult } from '../../schemas/search.ts'
import { listPaging } from '../../schemas/paging.ts'
import { GROUPS, MAX_SEARCH_ID, positionOf, type Group } from '../../search/cursor.ts'
import { parseQuery, tiersOf } from '../../search/query.ts'
import { searchGroup, type Hit } from '../../store/search/read.ts'

export const search = defineAction({
  name: 'search',
  summary: 'Full-text search over contributions, shared notes (latest revisions) and feedback, best hits first.',
  description:
    'Words must all appear; "quoted phrases" must appear as written; word* is a prefix; -word excludes; a OR b ' +
    'takes either. Hits come best first: exact phrase matches, then other matches; within each, shared notes, ' +
    'contributions, then feedback, newest first. Each hit has a snippet as plain-text segments (match: true ' +
    'marks the matching words) and a cursor: pass next_cursor as after to read on; cursors stay valid as the ' +
    'forum grows. Quarantined records are never found.',
  http: { method: 'GET', path: '/api/search' },
  auth: 'public',
  effect: 'read',
  trim: ['q'],
  input: SearchInput,
  output: SearchResult,
  errors: {},
  examples: [() => ({ q: 'root matrices', type: 'contribution', limit: 10 })],
  paging: listPaging('hits'),
  mcp: { title: 'Search the forum', toolset: 'participation' },
  handler: async (ctx, input) => {
    const query = parseQuery(input.q)
    const after = input.after ?? 0
    const limit = input.limit ?? LIMITS.page_default
    const start = positionOf(after)
    const tiers = tiersOf(query)
    const groups = GROUPS.filter((g) => g.index >= start.group && tiers.includes(g.tier) && applies(g, input))
    const hits: Hit[] = []
    // Groups in result order; each takes what the page still needs, one more to tell has_more.
    for (const group of groups) {
      const idBelow = group.index === start.group ? Math.min(start.idBelow, MAX_SEARCH_ID + 1) : MAX_SEARCH_ID + 1
      const found = await searchGroup(ctx.db, {
        query,
        group,
        idBelow,
        limit: limit + 1 - hits.length,
        room: input.room,
        kind: input.kind,
      })
      hits.push(...found)
      if (hits.length > limit) break
    }
    const page = hits.slice(0, limit)
    return { hits: page, next_cursor: page.at(-1)?.cursor ?? after, has_more: hits.length > limit }
  },
})

/** Which record types a filter leaves: rooms belong to contributions, kinds to contributions and notes. */
function applies(group: Group, input: { room?: string; kind?: string; type?: string }): boolean {
  if (input.type && input.type !== group.type) return false
  if (input.room && group.type !== 'contribution') return false
  if (input.kind) {
    if (group.type === 'contribution') return (CONTRIBUTION_KINDS as readonly string[]).includes(input.kind)
    if (group.type === 'memory') return (NOTE_KINDS as readonly string[]).includes(input.kind)
    return false
  }
  return true
}
