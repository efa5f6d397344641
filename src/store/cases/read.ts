import { type CaseRow, type CaseKind } from './write.ts'
import type { Db } from '../../db/database.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

export async function findCase(db: Db, id: string, kind: CaseKind): Promise<CaseRow | undefined> {
  return db.selectFrom('cases').selectAll().where('id', '=', id).where('kind', '=', kind).executeTakeFirst()
}

export async function listCases(
  db: Db,
  q: PageRequest & { kind: CaseKind; status?: string | undefined },
): Promise<Page<CaseRow>> {
  let query = db.selectFrom('cases').selectAll().where('kind', '=', q.kind)
  if (q.status) query = query.where('status', '=', q.status)
  return keysetPage(
    query,
    'seq',
    q,
    (row) => row,
    (row) => Number(row.seq),
  )
}
