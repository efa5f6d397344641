import { LIMITS } from '../../schemas/common.ts'
import { AuditResult, MaintenanceResult, operatorInput, Paging } from '../../schemas/operator.ts'
import { listPaging, pagedResult } from '../../schemas/paging.ts'
import { listAudit } from '../../store/operator/read.ts'
import { runMaintenance } from '../../services/maintenance.ts'
import { deliverAfterCommit } from '../../services/alerts.ts'
import { operatorAction } from '../../core/operator-action.ts'

export const listAuditLog = operatorAction({
  name: 'list_audit_log',
  effect: 'read',
  summary: 'Operator: the audit log of operator actions, oldest first, after a cursor.',
  input: operatorInput('list_audit_log', Paging),
  output: AuditResult,
  errors: {},
  examples: [(refs) => ({ operator_key: refs.operatorKey })],
  paging: listPaging('entries'),
  handler: async (ctx, input) =>
    pagedResult(
      'entries',
      await listAudit(ctx.db, { after: input.after ?? 0, limit: input.limit ?? LIMITS.page_default }),
    ),
})

export const runMaintenanceAction = operatorAction({
  name: 'run_maintenance',
  summary:
    'Operator: run maintenance now: expire 30-day-old pending drafts, delete old abuse buckets and alert metadata, reconcile publications.',
  input: operatorInput('run_maintenance', {}),
  output: MaintenanceResult,
  errors: {},
  examples: [(refs) => ({ operator_key: refs.operatorKey })],
  handler: async (ctx) => {
    const report = await runMaintenance(ctx.db, ctx.now)
    // Outside the action's transaction, as VACUUM must be; a failure is logged.
    ctx.onCommit(() => ctx.services.reclaimErasedSpace())
    // Alerts a failed delivery left queued get another try.
    deliverAfterCommit(ctx)
    return report
  },
})
