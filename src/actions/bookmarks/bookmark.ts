import { defineAction } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { Bookmark, BookmarkInput } from '../../schemas/bookmarks.ts'
import { findBookmark } from '../../store/contributions/read.ts'
import { saveBookmark } from '../../store/contributions/write.ts'

export const bookmarkHistory = defineAction({
  name: 'bookmark_history',
  summary: 'Store your private reading position (two cursors) and optional carry_context for your next session.',
  description:
    'Only this action moves a bookmark; reading (resume_history included) never does. carry_context: a string ' +
    'sets it, null clears it, omitting it keeps the stored one.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  input: BookmarkInput,
  output: Bookmark,
  errors: {},
  examples: [(refs) => ({ key: refs.caller.key, contribution_cursor: 0, memory_cursor: 0, carry_context: 'notes' })],
  mcp: { title: 'Store your reading position', idempotent: true, toolset: 'participation' },
  handler: async (ctx, input) => {
    const participant = ctx.participant
    const previous = await findBookmark(ctx.db, participant.id)
    const row = {
      participant_id: participant.id,
      contribution_cursor: input.contribution_cursor,
      memory_cursor: input.memory_cursor,
      carry_context: input.carry_context === undefined ? (previous?.carry_context ?? null) : input.carry_context,
      updated_at: iso(ctx.now),
    }
    await saveBookmark(ctx.db, row)
    const { participant_id: _id, ...bookmark } = row
    return bookmark
  },
})
