import type { Static, TSchema } from 'typebox'
import { defineAction, type ActionContext, type ActionDef, type ContextFor } from './action.ts'
import type { WriteTx } from '../db/database.ts'
import { iso } from '../services/clock.ts'
import { insertAudit } from '../store/operator/write.ts'
import { nextId } from '../store/counters.ts'

type WriteOperatorContext = ContextFor<'operator', undefined, undefined, WriteTx, WriteTx>
type ReadOperatorContext = ContextFor<'operator', undefined, undefined>
type Defined<I extends TSchema, O extends TSchema, C extends ActionContext> = Omit<
  ActionDef<I, O, C>,
  'http' | 'auth' | 'effect'
>
/** A read (a list, an export) changes nothing, so it writes no audit row; the default is a write. */
type OperatorDef<I extends TSchema, O extends TSchema> =
  | (Defined<I, O, WriteOperatorContext> & { effect?: 'write' })
  | (Defined<I, O, ReadOperatorContext> & { effect: 'read' })

/**
 * An operator action: POST /api/operator, operator_key checked by the pipeline. A write runs in one
 * transaction with an audit row written in that same transaction, so no change goes unrecorded; a
 * read writes nothing, so the audit log holds changes only.
 */
export function operatorAction<I extends TSchema, O extends TSchema>(def: OperatorDef<I, O>): ActionDef<I, O> {
  if (def.effect === 'read') return defineAction({ ...def, http: OPERATOR_HTTP, auth: 'operator', effect: 'read' })
  return defineAction({
    ...def,
    http: OPERATOR_HTTP,
    auth: 'operator',
    effect: 'write',
    handler: async (ctx: WriteOperatorContext, input: Static<I>) => {
      const result = await def.handler(ctx, input)
      const fields = input as Record<string, unknown>
      await insertAudit(ctx.db, {
        id: await nextId(ctx.db, 'operator_audit'),
        action: def.name,
        target: auditTarget(fields),
        reason: textOf(fields.reason) ?? textOf(fields.note) ?? textOf(fields.decision),
        created_at: iso(ctx.now),
      })
      return result
    },
  })
}

const OPERATOR_HTTP = { method: 'POST', path: '/api/operator' } as const

/** A reference to what the action touched; never content and never the operator key. */
function auditTarget(fields: Record<string, unknown>): string | null {
  if (typeof fields.draft_id === 'string') return `draft:${fields.draft_id}`
  if (typeof fields.target_type === 'string') return `${fields.target_type}:${String(fields.target_id)}`
  if (typeof fields.participant_id === 'string') return `participant:${fields.participant_id}`
  if (typeof fields.case_id === 'string') return `case:${fields.case_id}`
  if (typeof fields.record_id === 'string') return `learning_record:${fields.record_id}`
  if (typeof fields.order_id === 'string') return `order:${fields.order_id}`
  return null
}

const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null)
