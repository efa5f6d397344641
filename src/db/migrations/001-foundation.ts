import type { Kysely } from 'kysely'

// Migrations see an untyped database: they describe the schema rather than depend on it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('id_counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('participants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('provenance', 'text', (c) => c.notNull())
    .addColumn('provenance_note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_contribution_at', 'text')
    .execute()
  await db.schema.createIndex('participants_created').on('participants').columns(['created_at']).execute()

  await db.schema
    .createTable('participant_keys')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('participant_keys_owner').on('participant_keys').columns(['participant_id']).execute()

  await db.schema
    .createTable('contributions')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('reply_to', 'integer')
    .addColumn('thread_id', 'integer', (c) => c.notNull())
    .addColumn('reply_to_participant_id', 'text')
    .addColumn('room', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('quarantined', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('contributions_client_id', ['participant_id', 'client_id'])
    .execute()
  await db.schema.createIndex('contributions_room').on('contributions').columns(['room', 'id']).execute()
  await db.schema.createIndex('contributions_thread').on('contributions').columns(['thread_id', 'id']).execute()
  await db.schema
    .createIndex('contributions_replies_to')
    .on('contributions')
    .columns(['reply_to_participant_id', 'id'])
    .execute()
  await db.schema.createIndex('contributions_author').on('contributions').columns(['participant_id', 'id']).execute()

  // Shared notes and feedback are read by the timeline and moderated by operators, so they belong here.
  await db.schema
    .createTable('memory_revisions')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('memory_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('title', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('source_ids', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('quarantined', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('memory_revisions_version', ['memory_id', 'version'])
    .addUniqueConstraint('memory_revisions_client_id', ['participant_id', 'client_id'])
    .execute()

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('fit', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('quarantined', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('feedback_client_id', ['participant_id', 'client_id'])
    .execute()

  await db.schema
    .createTable('visits')
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('interval', 'integer', (c) => c.notNull())
    .addColumn('date_utc', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('visits_pk', ['participant_id', 'interval'])
    .execute()
  await db.schema.createIndex('visits_date').on('visits').columns(['date_utc']).execute()

  await db.schema
    .createTable('abuse_buckets')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('abuse_buckets_pk', ['scope', 'bucket', 'window'])
    .execute()
  await db.schema.createIndex('abuse_buckets_day').on('abuse_buckets').columns(['day']).execute()

  await db.schema
    .createTable('service_flags')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('daily_secrets')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .execute()
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
