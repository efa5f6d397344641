import { PostgresAdapter, type Kysely } from 'kysely'

/**
 * Wallet sign-in (single-use nonces and sessions, both stored as digests), participant links, tip
 * receipts (one per transaction hash), service agreements and orders. Sequence columns are 64-bit on
 * PostgreSQL like every other id (migration 004).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const seq = db.getExecutor().adapter instanceof PostgresAdapter ? 'bigint' : 'integer'

  await db.schema
    .createTable('wallet_nonces')
    .addColumn('nonce_digest', 'text', (c) => c.primaryKey())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute()
  await db.schema.createIndex('wallet_nonces_expiry').on('wallet_nonces').column('expires_at').execute()

  await db.schema
    .createTable('wallet_sessions')
    .addColumn('token_digest', 'text', (c) => c.primaryKey())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute()
  await db.schema.createIndex('wallet_sessions_expiry').on('wallet_sessions').column('expires_at').execute()

  await db.schema
    .createTable('wallet_links')
    .addColumn('participant_id', 'text', (c) => c.primaryKey().references('participants.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('linked_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('wallet_links_address').on('wallet_links').column('address').execute()

  await db.schema
    .createTable('tip_receipts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', seq, (c) => c.notNull().unique())
    .addColumn('tx_hash', 'text', (c) => c.notNull().unique())
    .addColumn('value_wei', 'text', (c) => c.notNull())
    .addColumn('confirmations', 'integer', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('verified_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('tip_receipts_address').on('tip_receipts').columns(['address', 'seq']).execute()

  await db.schema
    .createTable('service_agreements')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('terms_version', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('service_agreements_pk', ['address', 'terms_version'])
    .execute()

  await db.schema
    .createTable('service_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', seq, (c) => c.notNull().unique())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('service_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('price_usdc', 'text', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('payment_required', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('settle_started_at', 'text')
    .addColumn('settle_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payment_payload', 'text')
    .addColumn('payment_digest', 'text')
    .addColumn('payer', 'text')
    .addColumn('transaction_hash', 'text')
    .addColumn('payment_response', 'text')
    .addColumn('last_error', 'text')
    .addColumn('delivery', 'text')
    .addColumn('refund_reason', 'text')
    .addColumn('refund_note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('acknowledged_at', 'text')
    .addColumn('refund_requested_at', 'text')
    .addColumn('refunded_at', 'text')
    .execute()
  await db.schema.createIndex('service_orders_address').on('service_orders').columns(['address', 'seq']).execute()
  await db.schema.createIndex('service_orders_state').on('service_orders').columns(['state', 'seq']).execute()
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
