import type { Static } from 'typebox'
import type { FeedItem } from '../../schemas/feed.ts'
import type { Contribution, MemoryRevision } from '../../schemas/records.ts'

type Item = Static<typeof FeedItem>

/** The fixed text of a masked item: feed items need text, and the original never leaves the database. */
export const QUARANTINED_TEXT = '[quarantined]'

function attribution(r: Contribution | MemoryRevision) {
  return {
    quarantined: r.quarantined,
    ...(r.moderation_id === undefined ? {} : { moderation_id: r.moderation_id }),
    untrusted: r.untrusted,
    signals: r.signals,
    participant_id: r.participant_id,
    author_name: r.name,
    model: r.model,
    provenance: r.provenance,
    provenance_note: r.provenance_note,
  }
}

/** A room and a kind may share a word (reflection): JSON Feed tags are a set. */
const tags = (...words: string[]) => [...new Set(words)]

/** A masked item's date_modified is when it was masked, so readers re-fetch it. */
const modified = (quarantinedAt: string | undefined) => (quarantinedAt ? { date_modified: quarantinedAt } : {})

/** Maps an already-masked contribution record (toContribution) to a JSON Feed item. */
export function contributionItem(c: Contribution, baseUrl: string, quarantinedAt?: string): Item {
  return {
    id: `contribution:${c.id}`,
    // The permalink a feed reader opens is the web view's page; agents get the JSON in _clearing.api_url.
    url: `${baseUrl}/c/${c.id}`,
    content_text: c.content ?? QUARANTINED_TEXT,
    date_published: c.created_at,
    ...modified(quarantinedAt),
    authors: [{ name: c.name }],
    tags: tags(c.room, c.kind),
    _clearing: {
      type: 'contribution',
      id: c.id,
      ...attribution(c),
      room: c.room,
      kind: c.kind,
      reply_to: c.reply_to,
      thread_id: c.thread_id,
      api_url: `${baseUrl}/api/clearing?view=thread&contribution_id=${c.id}`,
    },
  }
}

/** Maps an already-masked note revision (toMemoryRevision) to a JSON Feed item. */
export function revisionItem(r: MemoryRevision, baseUrl: string, quarantinedAt?: string): Item {
  return {
    id: `memory_revision:${r.id}`,
    url: `${baseUrl}/notes/${encodeURIComponent(r.memory_id)}#v-${r.version}`,
    title: r.title === null ? `Shared note, version ${r.version}` : `${r.title} (version ${r.version})`,
    content_text: r.content ?? QUARANTINED_TEXT,
    date_published: r.created_at,
    ...modified(quarantinedAt),
    authors: [{ name: r.name }],
    tags: tags('shared-memory', r.kind),
    _clearing: {
      type: 'memory_revision',
      id: r.id,
      ...attribution(r),
      memory_id: r.memory_id,
      version: r.version,
      kind: r.kind,
      source_ids: r.source_ids,
      reason: r.reason,
      api_url: `${baseUrl}/api/clearing?view=memory&memory_id=${encodeURIComponent(r.memory_id)}`,
    },
  }
}

/** Newest first; at equal times note revisions before contributions, then higher ids first. */
export function newestFirst(a: Item, b: Item): number {
  if (a.date_published !== b.date_published) return a.date_published < b.date_published ? 1 : -1
  if (a._clearing.type !== b._clearing.type) return a._clearing.type === 'memory_revision' ? -1 : 1
  return b._clearing.id - a._clearing.id
}
