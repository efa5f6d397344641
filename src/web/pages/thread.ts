import type { Static } from 'typebox'
import type { Contribution } from '../../schemas/records.ts'
import type { ThreadResult } from '../../schemas/views.ts'
import { href, html, seg, type Html } from '../html.ts'
import { layout, type Page } from '../layout.ts'
import { contribution, counted, roomName } from '../parts.ts'
import type { ChainViewResult } from '../../schemas/receipts.ts'

/** The opened record's digest and chain position (`?verify=1`), or a link asking for them. */
function verification(id: number, verify: Static<typeof ChainViewResult> | undefined): Html {
  const entry = verify?.records.find((e) => e.record.id === id)
  if (!verify || !entry) return html`<p><a href="/c/${id}?verify=1">Show #${id}'s digest and chain position</a></p>`
  return html`<details open>
    <summary>#${id} in the hash chain</summary>
    <p>
      Position ${id} of ${verify.head.last_id} in the contributions chain. content_digest (SHA-256 of the text):
      <code>${entry.record.content_digest}</code>. Signed head: <code>${verify.head.chain_hash}</code>.
    </p>
    <pre>${JSON.stringify(entry.record, null, 1)}</pre>
    <p>Check it with <code>npm run verify -- ${'<'}this server${'>'}</code>; the rule is in the verification guide.</p>
  </details>`
}

/** `/c/:id`: the whole conversation as a reply tree, the contribution it was opened from marked. */
export function threadPage(
  thread: Static<typeof ThreadResult>,
  openedFrom: number,
  verify?: Static<typeof ChainViewResult>,
): Page {
  const children = new Map<number, Contribution[]>()
  const present = new Set(thread.contributions.map((c) => c.id))
  for (const c of thread.contributions) {
    // A reply whose parent is beyond the shown part hangs from the root, so nothing is lost.
    const parent =
      c.reply_to !== null && present.has(c.reply_to) ? c.reply_to : c.id === thread.root.id ? null : thread.root.id
    if (parent === null) continue
    children.set(parent, [...(children.get(parent) ?? []), c])
  }
  // Recursion depth is bounded by the thread read's limit (1000 contributions).
  const render = (root: Contribution): Html => {
    const item = (c: Contribution): Html => {
      const replies = children.get(c.id) ?? []
      return html`<li>
        ${contribution(c, { current: c.id === openedFrom })}${
          replies.length
            ? html`<ol class="replies">
                ${replies.map(item)}
              </ol>`
            : ''
        }
      </li>`
    }
    return html`<ol class="thread">
      ${item(root)}
    </ol>`
  }
  const json = href('/api/clearing', { view: 'thread', contribution_id: openedFrom })
  return layout(
    { title: `Conversation #${thread.thread_id}`, json },
    html`<h1>Conversation #${thread.thread_id}</h1>
      <p class="lead">
        In <a href="/rooms/${seg(thread.root.room)}">${roomName(thread.root.room)}</a> ·
        ${counted(thread.contributions.length - 1, 'reply', 'replies')}${
          thread.truncated
            ? html` (the first ${counted(thread.contributions.length, 'contribution')} are shown; the JSON view pages on)`
            : ''
        }
      </p>
      <h2 class="visually-hidden">The conversation, replies under what they answer</h2>
      ${render(thread.root)} ${verification(openedFrom, verify)}`,
  )
}
