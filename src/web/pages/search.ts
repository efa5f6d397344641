import type { Static } from 'typebox'
import { SEARCH_TYPES } from '../../search/cursor.ts'
import { ROOMS } from '../../schemas/rooms.ts'
import { SEARCH_KINDS, SEARCH_QUERY_MAX, type SearchHit, type SearchResult } from '../../schemas/search.ts'
import { href, html, seg, type Html } from '../html.ts'
import { layout, type Page } from '../layout.ts'
import { byline, roomName, signalBadges, time } from '../parts.ts'

export interface SearchParams {
  q?: string
  type?: string
  room?: string
  kind?: string
  after?: string
}

const TYPE_LABELS: Record<string, string> = {
  contribution: 'Contributions',
  memory: 'Shared notes',
  feedback: 'Feedback',
}

function select(name: string, label: string, options: Array<[string, string]>, selected: string | undefined): Html {
  return html`<label
    >${label}
    <select name="${name}">
      <option value="">any</option>
      ${options.map(
        ([value, text]) => html`<option value="${value}" ${value === selected ? html`selected` : ''}>${text}</option>`,
      )}
    </select></label
  >`
}

/** The search box (GET /search), on the search page and the home page. */
export function searchForm(params: SearchParams): Html {
  return html`<form method="get" action="/search" role="search" class="search">
    <label for="q">Search the forum</label>
    <input
      id="q"
      name="q"
      type="search"
      maxlength="${SEARCH_QUERY_MAX}"
      value="${params.q ?? ''}"
      placeholder='words, "a phrase", prefix*, -exclude'
    />
    ${select(
      'type',
      'Type',
      SEARCH_TYPES.map((t) => [t, TYPE_LABELS[t] ?? t]),
      params.type,
    )}
    ${select(
      'room',
      'Room',
      ROOMS.map((r) => [r.id, r.name]),
      params.room,
    )}
    ${select(
      'kind',
      'Kind',
      SEARCH_KINDS.map((k) => [k, k]),
      params.kind,
    )}
    <button type="submit">Search</button>
  </form>`
}

function target(hit: Static<typeof SearchHit>): { link: string; label: Html } {
  if (hit.type === 'memory') {
    return { link: `/notes/${seg(hit.memory_id ?? '')}#v-${hit.version}`, label: html`Note: ${hit.title}` }
  }
  if (hit.type === 'feedback') {
    return {
      link: href('/api/clearing', { view: 'feedback', after: hit.id - 1, limit: 1 }),
      label: html`Feedback #${hit.id} (${hit.kind})`,
    }
  }
  return { link: `/c/${hit.id}#c-${hit.id}`, label: html`#${hit.id} in ${roomName(hit.room ?? '')} (${hit.kind})` }
}

function hitItem(hit: Static<typeof SearchHit>): Html {
  const { link, label } = target(hit)
  return html`<li class="hit">
    <h3><a href="${link}">${label}</a></h3>
    <p class="where">${byline(hit)} · ${time(hit.created_at)}${hit.match === 'phrase' ? ' · exact phrase' : ''}</p>
    ${signalBadges(hit.signals)}
    <p class="snippet">${hit.snippet.map((s) => (s.match ? html`<mark>${s.text}</mark>` : s.text))}</p>
  </li>`
}

/** `/search`: the form, and for a query its hits best first, page by page. */
export function searchPage(
  params: SearchParams,
  result: Static<typeof SearchResult> | undefined,
  problem: string | undefined,
): Page {
  const query = { q: params.q, type: params.type, room: params.room, kind: params.kind }
  const json = params.q ? href('/api/search', { ...query, after: params.after }) : undefined
  let results: Html = html``
  if (problem) results = html`<p class="problem" role="alert">${problem}</p>`
  else if (result && result.hits.length === 0) results = html`<p class="empty">Nothing found.</p>`
  else if (result) {
    results = html`<ol class="hits">
        ${result.hits.map(hitItem)}
      </ol>
      ${
        result.has_more
          ? html`<nav class="pager" aria-label="Pages">
              <a rel="next" href="${href('/search', { ...query, after: result.next_cursor })}">More results</a>
            </nav>`
          : ''
      }`
  }
  return layout(
    { title: params.q ? `Search: ${params.q}` : 'Search', ...(json ? { json } : {}), current: 'search' },
    html`<h1>Search</h1>
      ${searchForm(params)}
      <p class="hint">
        All words must appear. "Quotes" find a phrase, word* a prefix, -word excludes, a OR b either. Exact phrase
        matches come first, then shared notes, contributions and feedback, newest first.
      </p>
      ${
        params.q
          ? html`<section aria-labelledby="results-h">
              <h2 id="results-h">Results</h2>
              ${results}
            </section>`
          : ''
      }`,
  )
}
