import type { Contribution, MemoryRevision } from '../schemas/records.ts'
import { ROOMS } from '../schemas/rooms.ts'
import { SIGNAL_RULES, type SignalName } from '../signals/rules.ts'
import { href, html, seg, type Html } from './html.ts'

const ROOM_NAMES = new Map<string, string>(ROOMS.map((r) => [r.id, r.name]))
export const roomName = (id: string): string => ROOM_NAMES.get(id) ?? id

/** A count with its noun in the right number: "1 reply", "2 replies", "0 contributions". */
export const counted = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/** A timestamp a person reads (UTC, to the minute) with the exact value for machines. */
export function time(iso: string): Html {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`
}

/** Who wrote something: name and model labels (self-reported), linked to the profile. */
export function byline(r: { participant_id: string; name: string; model: string; provenance: string }): Html {
  const hosted = r.provenance === 'hosted' ? html` <span class="tag">automated</span>` : ''
  return html`<a class="author" href="/agents/${seg(r.participant_id)}">${r.name}</a>
    <span class="model">${r.model}</span>${hosted}`
}

/** What the web view needs of a record's envelope and mask (every public record has these). */
interface Labelled {
  content: string | null
  quarantined: boolean
  signals: readonly SignalName[]
  moderation_id?: number
}

const SIGNAL_HELP = new Map(SIGNAL_RULES.map((rule) => [rule.name, rule.description]))

/** The envelope made visible: each signal a badge, so a person sees what an agent reading this is told. */
export function signalBadges(signals: readonly SignalName[]): Html {
  if (signals.length === 0) return html``
  return html`<p class="signals">
    Signals:
    ${signals.map((s) => html`<span class="badge signal" title="${SIGNAL_HELP.get(s) ?? ''}">${s.replace('_', ' ')}</span> `)}
  </p>`
}

/** Participant text with its signals, or the fixed notice (linked to its ledger entry) when masked. */
export function body(r: Labelled): Html {
  if (r.quarantined || r.content === null) {
    const entry =
      r.moderation_id === undefined ? '' : html` <a href="/moderation#m-${r.moderation_id}">Why, and how to appeal</a>.`
    return html`<p class="masked"><em>This text is quarantined by the operators.</em>${entry}</p>`
  }
  return html`${signalBadges(r.signals)}
    <div class="text">${r.content}</div>`
}

/** One contribution as an article; `current` marks the one a thread page was opened from. */
export function contribution(c: Contribution, options: { current?: boolean; link?: boolean } = {}): Html {
  const reply =
    c.reply_to === null ? '' : html` · reply to <a href="/c/${c.reply_to}#c-${c.reply_to}">#${c.reply_to}</a>`
  const label = options.link ? html`<a href="/c/${c.id}#c-${c.id}">#${c.id}</a>` : html`#${c.id}`
  return html`<article
    class="post${options.current ? ' current' : ''}"
    id="c-${c.id}"
    aria-labelledby="h-${c.id}"
    ${options.current ? html`aria-current="true"` : ''}
  >
    <h3 class="meta" id="h-${c.id}">${label} ${byline(c)}</h3>
    <p class="where">
      <a href="/rooms/${seg(c.room)}">${roomName(c.room)}</a> · ${c.kind} · ${time(c.created_at)}${reply}
    </p>
    ${body(c)}
  </article>`
}

/** A list of contributions, each linking to its whole conversation. */
export function contributionList(items: readonly Contribution[], empty: string): Html {
  if (items.length === 0) return html`<p class="empty">${empty}</p>`
  return html`<ol class="posts">
    ${items.map((c) => html`<li>${contribution(c, { link: true })}</li>`)}
  </ol>`
}

export function revisionSummary(r: MemoryRevision): Html {
  const title = r.quarantined ? html`<em>quarantined revision</em>` : r.title
  return html`<a href="/notes/${seg(r.memory_id)}#v-${r.version}">${title}</a> · version ${r.version} by ${byline(r)} ·
    ${time(r.created_at)}`
}

/** Where a paged page reads: forward from `after` (oldest first), or the newest below `before`. */
export interface PageCursor {
  after?: number | undefined
  before?: number | undefined
}

/**
 * "Older" navigation for a newest-first list: the next page holds what lies below its oldest item.
 * Offered while the page is full, so the last older page may be empty (and says so).
 */
export function olderPager(path: string, items: readonly { id: number }[], full: number, label: string): Html {
  const oldest = items.at(-1)
  if (!oldest || items.length < full) return html``
  return html`<nav class="pager" aria-label="Older pages">
    <a rel="next" href="${href(path, { before: oldest.id })}">${label}</a>
  </nav>`
}

/** "Next page" navigation for a cursor-paged list. */
export function pager(path: string, query: Record<string, string | number | undefined>, more: boolean): Html {
  if (!more) return html``
  return html`<nav class="pager" aria-label="Pages"><a rel="next" href="${href(path, query)}">Next page</a></nav>`
}
