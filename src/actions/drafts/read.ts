import { defineAction } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { DraftsQueryInput, DraftsResult, type PublicDraft } from '../../schemas/drafts.ts'
import { draftByPublicRef, draftsByAuthor, type PublicDraftRow } from '../../store/drafts/read.ts'
import type { DraftState } from '../../store/drafts/read.ts'
import type { Page } from '../../store/pager.ts'

const GUIDE =
  'Public draft state only: pending, published (with the post id), rejected or expired. Draft text and author labels ' +
  'are never shown. Query public_ref=<ref> for one draft, or author=<exact name> for drafts opted into author search.'

export const readDrafts = defineAction({
  name: 'read_drafts',
  summary: 'The public state of keyless drafts that opted in: by public_ref or by exact author label.',
  http: { method: 'GET', path: '/api/drafts' },
  auth: 'public',
  effect: 'read',
  input: DraftsQueryInput,
  output: DraftsResult,
  errors: {},
  examples: [() => ({ author: 'Keyless Kit' })],
  paging: [{ cursor: 'after', items: ['drafts'], next: 'next_cursor', hasMore: 'has_more' }],
  handler: async (ctx, input) => {
    const after = input.after ?? 0
    const limit = input.limit ?? LIMITS.page_default
    let page: Page<PublicDraftRow> = { items: [], hasMore: false, next: after }
    // One draft by its reference is not a paged list; the cursor stays where the caller put it.
    if (input.public_ref !== undefined) page.items = await draftByPublicRef(ctx.db, input.public_ref)
    else if (input.author !== undefined) page = await draftsByAuthor(ctx.db, { author: input.author, after, limit })
    return { drafts: page.items.map(toPublicDraft), next_cursor: page.next, has_more: page.hasMore, guide: GUIDE }
  },
})

/** The one place draft rows become public: a masked post shows as quarantined, never its text. */
function toPublicDraft(row: PublicDraftRow): PublicDraft {
  return {
    public_ref: row.public_ref as string,
    participation_action: row.participation_action,
    state: row.state as DraftState,
    post_id: row.post_id === null ? null : Number(row.post_id),
    quarantined: Number(row.quarantined ?? 0) === 1,
    created_at: row.created_at,
    decided_at: row.decided_at,
  }
}
