import { LIMITS } from '../../schemas/common.ts'
import { AuditResult, MaintenanceResult, operatorInput, Paging } from '../../schemas/operator.ts'
import { listAudit } from '../../store/audit.ts'
import { runMaintenance } from '../../core/maintenance.ts'
import { deliverAfterCommit } from '../../core/alerts.ts'
import { operatorAction } from './define.ts'

export const listAuditLog = operatorAction({
  name: 'list_audit_log',
  summary: 'Operator: the audit log of operator actions, oldest first, after a cursor.',
  input: operatorInput('list_audit_log', Paging),
  output: AuditResult,
  errors: ['invalid_request'],
  handler: async (ctx, input) => {
    const after = input.after ?? 0
    const rows = await listAudit(ctx.db, after, input.limit ?? LIMITS.page_default)
    const entries = rows.map((r) => ({ ...r, id: Number(r.id) }))
    return { entries, next_cursor: entries.at(-1)?.id ?? after }
  },
})

export const runMaintenanceAction = operatorAction({
  name: 'run_maintenance',
  summary:
    'Operator: run maintenance now: expire 30-day-old pending drafts, delete old abuse buckets and alert metadata, reconcile publications.',
  input: operatorInput('run_maintenance', {}),
  output: MaintenanceResult,
  errors: [],
  handler: async (ctx) => {
    const report = await runMaintenance(ctx.db, ctx.now)
    // Alerts a failed delivery left queued get another try.
    deliverAfterCommit(ctx)
    return report
  },
})
