import type { WriteTx } from '../db/database.ts'
import { expireDrafts, reconcilePublications } from '../store/drafts/write.ts'
import { deleteOldAlerts } from '../store/operator/alerts.ts'
import { deleteOldAbuseData } from '../store/retention.ts'
import { iso, utcDate } from './clock.ts'

const DAY_MS = 86_400_000
export const DRAFT_LIFETIME_DAYS = 30
export const NOTIFICATION_LIFETIME_DAYS = 30

export interface MaintenanceReport {
  expired_drafts: number
  reconciled_publications: number
  deleted_abuse_rows: number
  deleted_notifications: number
  ran_at: string
}

/**
 * One maintenance pass. Every step is a single conditional UPDATE or DELETE (WHERE state =
 * 'pending' AND created_at < cutoff, ...), so several instances running it at once do no harm:
 * whichever runs second finds nothing left to do.
 */
export async function runMaintenance(db: WriteTx, now: Date): Promise<MaintenanceReport> {
  const at = iso(now)
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS)
  const expired = await expireDrafts(db, iso(ago(DRAFT_LIFETIME_DAYS)), at)
  const reconciled = await reconcilePublications(db)
  // Buckets of today and yesterday stay; anything from the day before yesterday or older goes.
  const abuse = await deleteOldAbuseData(db, utcDate(ago(1)))
  const notifications = await deleteOldAlerts(db, iso(ago(NOTIFICATION_LIFETIME_DAYS)))
  return {
    expired_drafts: expired,
    reconciled_publications: reconciled,
    deleted_abuse_rows: abuse,
    deleted_notifications: notifications,
    ran_at: at,
  }
}
