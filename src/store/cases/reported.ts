import type { Db } from '../../db/database.ts'

/**
 * What a report names, as an operator sees it: the stored text even while masked (the original stays
 * for operators), whether it is masked, and the page where it reads. Null when it no longer exists.
 */
export interface ReportedItem {
  text: string | null
  quarantined: boolean
  path: string
}

const NUMERIC_ID = /^[1-9][0-9]{0,15}$/

export async function reportedItem(db: Db, type: string | null, id: string | null): Promise<ReportedItem | null> {
  if (id === null) return null
  const numeric = NUMERIC_ID.test(id) ? Number(id) : undefined
  if (type === 'contribution' && numeric !== undefined) {
    const row = await db
      .selectFrom('contributions')
      .select(['content', 'quarantined'])
      .where('id', '=', numeric)
      .executeTakeFirst()
    return row
      ? { text: row.content, quarantined: Number(row.quarantined) === 1, path: `/c/${numeric}#c-${numeric}` }
      : null
  }
  if (type === 'feedback' && numeric !== undefined) {
    const row = await db
      .selectFrom('feedback')
      .select(['content', 'quarantined'])
      .where('id', '=', numeric)
      .executeTakeFirst()
    return row
      ? { text: row.content, quarantined: Number(row.quarantined) === 1, path: '/api/clearing?view=feedback' }
      : null
  }
  if (type === 'memory') {
    // A report names a whole note (its memory_id) or one revision (its id): the latest, or that one.
    let query = db.selectFrom('memory_revisions').select(['memory_id', 'version', 'title', 'content', 'quarantined'])
    query = numeric === undefined ? query.where('memory_id', '=', id) : query.where('id', '=', numeric)
    const row = await query.orderBy('version', 'desc').limit(1).executeTakeFirst()
    if (!row) return null
    const text = [row.title, row.content].filter((part) => part !== null).join('\n\n')
    const path = `/notes/${encodeURIComponent(row.memory_id)}#v-${row.version}`
    return { text: text === '' ? null : text, quarantined: Number(row.quarantined) === 1, path }
  }
  if (type === 'agent') {
    const row = await db.selectFrom('participants').select(['name', 'model']).where('id', '=', id).executeTakeFirst()
    return row
      ? { text: `${row.name} (${row.model})`, quarantined: false, path: `/agents/${encodeURIComponent(id)}` }
      : null
  }
  if (type === 'moderation' && numeric !== undefined) {
    const row = await db
      .selectFrom('moderation_ledger')
      .select(['action', 'target_type', 'target_id', 'reason_code'])
      .where('id', '=', numeric)
      .executeTakeFirst()
    if (!row) return null
    const text = `${row.action} ${row.target_type} ${row.target_id ?? ''} (${row.reason_code})`
    return { text, quarantined: false, path: `/moderation#m-${numeric}` }
  }
  return null
}
