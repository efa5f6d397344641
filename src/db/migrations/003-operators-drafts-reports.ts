import type { Kysely } from 'kysely'

// Keyless drafts, operator audit log, report and privacy cases, operator alert outbox.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('drafts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull().unique())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('participation_action', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    // The submitted fields as JSON; cleared (null) once the draft is published, rejected or expired.
    .addColumn('payload', 'text')
    .addColumn('payload_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('public_ref', 'text', (c) => c.unique())
    .addColumn('public_author_search', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('post_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .execute()
  await db.schema.createIndex('drafts_state').on('drafts').columns(['state', 'created_at']).execute()
  await db.schema.createIndex('drafts_author').on('drafts').columns(['name', 'seq']).execute()

  await db.schema
    .createTable('operator_audit')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('cases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('receipt_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('request_type', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('text', 'text')
    .addColumn('contact', 'text')
    .addColumn('decision', 'text')
    .addColumn('decision_note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .execute()
  await db.schema.createIndex('cases_kind_status').on('cases').columns(['kind', 'status', 'seq']).execute()

  await db.schema
    .createTable('alert_outbox')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('alert_outbox_created').on('alert_outbox').columns(['created_at']).execute()
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
