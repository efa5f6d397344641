import { diffWords } from 'diff'
import type { Static } from 'typebox'
import type { MemoryViewResult } from '../../schemas/notes.ts'
import type { MemoryRevision } from '../../schemas/records.ts'
import { href, html, seg, type Html } from '../html.ts'
import { layout, type Page } from '../layout.ts'
import { body, byline, time } from '../parts.ts'

type Note = Static<typeof MemoryViewResult>

/** Word-level changes from one revision's text to another's (jsdiff), as ins/del marks. */
function changes(before: string, after: string): Html {
  const parts = diffWords(before, after)
  return html`${parts.map((p) =>
    p.added
      ? html`<ins><span class="visually-hidden">added: </span>${p.value}</ins>`
      : p.removed
        ? html`<del><span class="visually-hidden">removed: </span>${p.value}</del>`
        : html`<span>${p.value}</span>`,
  )}`
}

/** The diff between two revisions; masked text is never compared, so it cannot leak through a diff. */
export function revisionDiff(from: MemoryRevision, to: MemoryRevision): Html {
  if (from.quarantined || to.quarantined) {
    return html`<p class="masked"><em>A quarantined revision is not compared.</em></p>`
  }
  return html`<dl class="diff">
    <dt>Title</dt>
    <dd>${changes(from.title ?? '', to.title ?? '')}</dd>
    <dt>Text</dt>
    <dd class="text">${changes(from.content ?? '', to.content ?? '')}</dd>
  </dl>`
}

function versionSelect(name: string, label: string, note: Note, selected: number): Html {
  return html`<label
    >${label}
    <select name="${name}">
      ${note.revisions.map(
        (r) =>
          html`<option value="${r.version}" ${r.version === selected ? html`selected` : ''}>
            version ${r.version}
          </option>`,
      )}
    </select></label
  >`
}

function revisionArticle(r: MemoryRevision, previous: MemoryRevision | undefined): Html {
  return html`<article class="revision" id="v-${r.version}" aria-labelledby="v-${r.version}-h">
    <h3 id="v-${r.version}-h">Version ${r.version}: ${r.quarantined ? html`<em>quarantined</em>` : r.title}</h3>
    <p class="where">
      by ${byline(r)} · ${time(r.created_at)} ·
      ${r.kind}${r.reason !== null ? html` · reason: <span class="reason">${r.reason}</span>` : ''}
    </p>
    ${
      previous
        ? html`<details>
            <summary>Changes from version ${previous.version}</summary>
            ${revisionDiff(previous, r)}
          </details>`
        : ''
    }
    ${body(r)}
  </article>`
}

/** `/notes/:memory_id`: the current text, every revision with its changes, and a diff of any two. */
export function notePage(note: Note, compare: { from: number; to: number } | undefined): Page {
  const byVersion = new Map(note.revisions.map((r) => [r.version, r]))
  const current = note.current
  const from = byVersion.get(compare?.from ?? current.version - 1) ?? note.revisions[0]
  const to = byVersion.get(compare?.to ?? current.version) ?? current
  const path = `/notes/${seg(note.memory_id)}`
  const revisions = note.revisions.map((r, i) => revisionArticle(r, note.revisions[i - 1])).reverse()
  return layout(
    {
      title: current.title ?? 'Shared note',
      json: href('/api/clearing', { view: 'memory', memory_id: note.memory_id }),
    },
    html`<h1>${current.quarantined ? html`<em>A quarantined shared note</em>` : current.title}</h1>
      <p class="lead">A shared note, version ${current.version}. ${note.note}</p>
      <section aria-labelledby="current-h">
        <h2 id="current-h">Current text</h2>
        ${body(current)}
        <p>
          Derived from ${current.source_ids.map((id, i) => html`${i ? ', ' : ''}<a href="/c/${id}#c-${id}">#${id}</a>`)}
        </p>
      </section>
      <section aria-labelledby="compare-h">
        <h2 id="compare-h">Compare two versions</h2>
        <form method="get" action="${path}" class="inline">
          ${versionSelect('from', 'From', note, from?.version ?? 1)} ${versionSelect('to', 'To', note, to.version)}
          <button type="submit">Compare</button>
        </form>
        ${
          from
            ? html`<p>Changes from version ${from.version} to version ${to.version}:</p>
                ${revisionDiff(from, to)}`
            : ''
        }
      </section>
      <section aria-labelledby="revisions-h">
        <h2 id="revisions-h">All revisions, newest first</h2>
        ${revisions}
      </section>`,
  )
}
