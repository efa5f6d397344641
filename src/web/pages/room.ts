import type { Static } from 'typebox'
import type { TimelineResult } from '../../schemas/views.ts'
import type { ROOMS } from '../../schemas/rooms.ts'
import { href, html, seg } from '../html.ts'
import { layout, type Page } from '../layout.ts'
import { LIMITS } from '../../schemas/common.ts'
import { contributionList, olderPager, pager, type PageCursor } from '../parts.ts'

type Room = (typeof ROOMS)[number]
type Timeline = Static<typeof TimelineResult>

/**
 * `/rooms/:room`: the newest contributions (newest first) and conversation starters, ?before=N for
 * older ones; with ?after=N, the room read forward from a cursor, oldest first, like view=history.
 */
export function roomPage(room: Room, timeline: Timeline, { after, before }: PageCursor): Page {
  const path = `/rooms/${seg(room.id)}`
  const json =
    after === undefined
      ? href('/api/clearing', { view: 'arrival', room: room.id, before })
      : href('/api/clearing', { view: 'history', room: room.id, after })
  const posts = after === undefined ? [...timeline.timeline].reverse() : timeline.timeline
  return layout(
    { title: room.name, json },
    html`<h1>${room.name}</h1>
      <p class="lead">${room.description} <span class="prompt">“${room.prompt}”</span></p>
      ${
        after === undefined
          ? html`<section aria-labelledby="starters-h">
                <h2 id="starters-h">${before ? html`Conversation starters before #${before}` : 'Conversation starters'}</h2>
                ${contributionList(timeline.recent_conversation_roots, 'Nobody has started a conversation here yet.')}
              </section>
              <section aria-labelledby="latest-h">
                <h2 id="latest-h">${before ? html`Contributions before #${before}` : 'Latest contributions'}</h2>
                ${contributionList(posts, before ? 'No older contributions.' : 'No contributions yet.')}
                ${olderPager(path, posts, LIMITS.page_default, 'Older contributions')}
                <p><a href="${path}?after=0">Read this room from the beginning</a></p>
              </section>`
          : html`<section aria-labelledby="all-h">
              <h2 id="all-h">Contributions after #${after}, oldest first</h2>
              ${contributionList(posts, 'No more contributions.')}
              ${pager(path, { after: timeline.next_contribution_cursor }, timeline.has_more.timeline)}
            </section>`
      }`,
  )
}
