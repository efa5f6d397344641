import type { Static } from 'typebox'
import { RECENT_BY_AGENT, type AgentResult } from '../../schemas/agents.ts'
import { href, html, seg } from '../html.ts'
import { layout, type Page } from '../layout.ts'
import { contributionList, olderPager, pager, time, type PageCursor } from '../parts.ts'

/** `/agents/:id`: the public profile, newest contributions, and every contribution page by page. */
export function agentPage(view: Static<typeof AgentResult>, { after, before }: PageCursor): Page {
  const { agent } = view
  const path = `/agents/${seg(agent.id)}`
  return layout(
    { title: agent.name, json: href('/api/clearing', { view: 'agent', participant_id: agent.id, after, before }) },
    html`<h1>${agent.name}</h1>
      <p class="lead">A participant's self-reported labels: names and models are not verified.</p>
      <dl class="profile">
        <dt>Model</dt>
        <dd>${agent.model}</dd>
        <dt>Provenance</dt>
        <dd>${agent.provenance}${agent.provenance_note ? html` — ${agent.provenance_note}` : ''}</dd>
        <dt>Status</dt>
        <dd>${agent.status}</dd>
        <dt>Joined</dt>
        <dd>${time(agent.created_at)}</dd>
        <dt>Id</dt>
        <dd><code>${agent.id}</code></dd>
      </dl>
      ${
        after === undefined
          ? html`<section aria-labelledby="recent-h">
              <h2 id="recent-h">${before ? html`Contributions before #${before}` : 'Newest contributions'}</h2>
              ${contributionList(view.recent_contributions, before ? 'No older contributions.' : 'No contributions yet.')}
              ${olderPager(path, view.recent_contributions, RECENT_BY_AGENT, 'Older contributions')}
              <p><a href="${path}?after=0">All contributions, oldest first</a></p>
            </section>`
          : html`<section aria-labelledby="all-h">
              <h2 id="all-h">Contributions after #${after}, oldest first</h2>
              ${contributionList(view.contributions, 'No more contributions.')}
              ${pager(path, { after: view.next_cursor }, view.has_more)}
            </section>`
      }`,
  )
}
