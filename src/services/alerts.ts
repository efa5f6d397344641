import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { Database, OnCommit, WriteTx } from '../db/database.ts'
import { nextId } from '../store/counters.ts'
import { claimUnsent, enqueueAlert, markSent, releaseClaim, type AlertRow } from '../store/operator/alerts.ts'
import { dedupeKeyTaken } from '../store/operator/read.ts'
import type { Clock } from './clock.ts'
import { iso, utcDate } from './clock.ts'
import { once } from './once.ts'

export type AlertKind = 'draft' | 'report' | 'privacy'

/** Delivers queued operator alerts; called after the intake commits and by maintenance. */
export interface Alerts {
  deliver(): Promise<number>
}

const CLAIM_BATCH = 50
const STALE_CLAIM_MS = 10 * 60 * 1000
/**
 * An SMTP server that accepts the connection but never greets (or stalls mid-way) must not keep a
 * delivery running for nodemailer's defaults of 2 and 10 minutes. Delivery runs after the response
 * in any case, so these bound only how long an unsent alert waits for its retry.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }

/**
 * Queues a reference-only alert inside the caller's transaction. Draft alerts are coalesced to one
 * per UTC day, so a flood of drafts cannot flood the operators' mailbox.
 */
export async function queueAlert(db: WriteTx, now: Date, kind: AlertKind, reference: string): Promise<void> {
  const dedupeKey = kind === 'draft' ? `draft:${utcDate(now)}` : `${kind}:${reference}`
  // Checked first so a coalesced draft alert does not consume an id.
  if (kind === 'draft' && (await dedupeKeyTaken(db, dedupeKey))) return
  const id = await nextId(db, 'alert_outbox')
  await enqueueAlert(db, { id, kind, reference, dedupe_key: dedupeKey, created_at: iso(now) })
}

/** What alerting needs of an action's context (core/action.ts's ActionContext has it). */
interface AlertContext {
  db: WriteTx
  now: Date
  onCommit: OnCommit
  services: { alerts: Alerts }
}

/** Queues an alert in the action's transaction and sends it (with any earlier ones) once that commits. */
export async function alertOperators(ctx: AlertContext, kind: AlertKind, reference: string): Promise<void> {
  await queueAlert(ctx.db, ctx.now, kind, reference)
  deliverAfterCommit(ctx)
}

/**
 * Delivery starts after the commit, in the background: the request never waits for the mail server,
 * a failed send never undoes the intake, and unsent alerts stay queued for the next try.
 */
export function deliverAfterCommit(ctx: AlertContext): void {
  ctx.onCommit(() => ctx.services.alerts.deliver().then(() => undefined))
}

/** The alert line: a reference only, never the reported or drafted content. */
export function alertText(row: Pick<AlertRow, 'kind' | 'reference'>): string {
  switch (row.kind) {
    case 'draft':
      return `Keyless drafts are waiting for review (first today: draft ${row.reference}). Use list_drafts.`
    case 'report':
      return `A content report was filed: case ${row.reference}. Use list_reports.`
    default:
      return `A privacy request was filed: case ${row.reference}. Use list_privacy_requests.`
  }
}

export function createAlerts(deps: { database: Database; config: Config; logger: Logger; clock: Clock }): Alerts {
  const { config, logger } = deps
  const smtpUrl = config.alertEmailTo ? config.smtpUrl : null
  const transport = smtpUrl
    ? once(async () => (await import('nodemailer')).default.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }))
    : undefined

  const send = async (row: AlertRow): Promise<void> => {
    const text = alertText(row)
    if (!transport) {
      logger.info({ alert: row.kind, reference: row.reference }, `operator alert: ${text}`)
      return
    }
    await (
      await transport()
    ).sendMail({
      from: config.alertEmailFrom,
      to: config.alertEmailTo ?? undefined,
      subject: `Clearing: ${row.kind} ${row.reference}`,
      text,
    })
  }

  return {
    async deliver() {
      const now = deps.clock.now()
      const staleBefore = iso(new Date(now.getTime() - STALE_CLAIM_MS))
      const db = deps.database.db
      const rows = await claimUnsent(db, iso(now), staleBefore, CLAIM_BATCH)
      let sent = 0
      for (const row of rows) {
        try {
          await send(row)
          await markSent(db, row.id, iso(deps.clock.now()))
          sent++
        } catch (err) {
          // The alert stays queued; the next intake or maintenance run retries it.
          logger.warn({ alert: row.kind, reference: row.reference, err: String(err) }, 'operator alert not delivered')
          await releaseClaim(db, row.id)
        }
      }
      return sent
    },
  }
}
