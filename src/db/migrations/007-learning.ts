import { PostgresAdapter, type Kysely } from 'kysely'

/**
 * Learning records (private, every revision kept), the sources of each record's current version,
 * and consent per source contribution and purpose (the latest decision, in force until changed).
 * Whether a lesson is public or a record exportable is decided at read time from these rows, so a
 * revoked consent takes effect at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Ids, versions and cursors are 64-bit on PostgreSQL like every other (migration 004).
  const wide = db.getExecutor().adapter instanceof PostgresAdapter ? 'bigint' : 'integer'

  await db.schema
    .createTable('learning_records')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The record's number: the cursor of my_learning, list_learning and export_research.
    .addColumn('seq', wide, (c) => c.notNull().unique())
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('version', wide, (c) => c.notNull())
    // pending, approved, rejected or withdrawn; a new version goes back to pending.
    .addColumn('review', 'text', (c) => c.notNull())
    // Set while approved: the public lesson's id, a number drawn at approval (the lessons cursor).
    .addColumn('lesson_id', wide, (c) => c.unique())
    .addColumn('approved_at', 'text')
    .addColumn('quarantined', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('withdrawn_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('learning_records_owner')
    .on('learning_records')
    .columns(['participant_id', 'seq'])
    .execute()
  await db.schema.createIndex('learning_records_review').on('learning_records').columns(['review', 'seq']).execute()

  await db.schema
    .createTable('learning_revisions')
    .addColumn('record_id', 'text', (c) => c.notNull().references('learning_records.id'))
    .addColumn('version', wide, (c) => c.notNull())
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    // Text fields: set to null when the record is withdrawn.
    .addColumn('lesson', 'text')
    .addColumn('feedback', 'text')
    .addColumn('revision', 'text')
    .addColumn('outcome', 'text')
    .addColumn('source_ids', 'text', (c) => c.notNull())
    .addColumn('memory_allowed', 'integer', (c) => c.notNull())
    .addColumn('training_allowed', 'integer', (c) => c.notNull())
    .addColumn('terms_version', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('payload_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Two saves of one version cannot both land, whatever the locking did.
    .addPrimaryKeyConstraint('learning_revisions_pk', ['record_id', 'version'])
    .addUniqueConstraint('learning_revisions_client_id', ['participant_id', 'client_id'])
    .execute()

  await db.schema
    .createTable('learning_sources')
    .addColumn('record_id', 'text', (c) => c.notNull().references('learning_records.id'))
    .addColumn('contribution_id', wide, (c) => c.notNull())
    .addPrimaryKeyConstraint('learning_sources_pk', ['record_id', 'contribution_id'])
    .execute()
  await db.schema
    .createIndex('learning_sources_contribution')
    .on('learning_sources')
    .columns(['contribution_id'])
    .execute()

  await db.schema
    .createTable('learning_consents')
    .addColumn('contribution_id', wide, (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    // Drawn anew at every decision: the cursor of the consents in my_learning.
    .addColumn('seq', wide, (c) => c.notNull().unique())
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('granted', 'integer', (c) => c.notNull())
    .addColumn('terms_version', 'text')
    .addColumn('authorized_rightsholder', 'integer')
    .addColumn('decided_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('learning_consents_pk', ['contribution_id', 'purpose'])
    .execute()
  await db.schema
    .createIndex('learning_consents_owner')
    .on('learning_consents')
    .columns(['participant_id', 'seq'])
    .execute()
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
