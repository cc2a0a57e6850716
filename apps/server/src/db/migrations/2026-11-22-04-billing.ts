import type { Kysely } from 'kysely';

/**
 * Billing as the payment provider reports it: customers, subscriptions, invoices (and
 * refunds), the plan history the user sees, the provider events already applied, and the
 * built-in test checkout's sessions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('billing_customers')
    .addColumn('user_id', 'varchar(64)', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'varchar(16)', (col) => col.notNull())
    .addColumn('customer_id', 'varchar(255)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addUniqueConstraint('billing_customers_provider_customer_key', ['provider', 'customer_id'])
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('provider_subscription_id', 'varchar(255)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'varchar(16)', (col) => col.notNull())
    .addColumn('customer_id', 'varchar(255)', (col) => col.notNull())
    .addColumn('plan_id', 'varchar(16)', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('cancel_at_period_end', 'integer', (col) => col.notNull())
    .addColumn('current_period_start', 'varchar(32)', (col) => col.notNull())
    .addColumn('current_period_end', 'varchar(32)', (col) => col.notNull())
    .addColumn('first_paid_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user_idx').on('subscriptions').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('invoices')
    .addColumn('provider_invoice_id', 'varchar(255)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_subscription_id', 'varchar(255)')
    .addColumn('amount_cents', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'varchar(8)', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('invoice_url', 'text')
    .addColumn('payment_ref', 'varchar(255)')
    /** For a refund: the invoice it gave back. */
    .addColumn('refund_of', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('invoices_user_idx').on('invoices').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('subscription_history')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(16)', (col) => col.notNull())
    .addColumn('plan_id', 'varchar(16)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('subscription_history_user_idx').on('subscription_history').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('id', 'varchar(255)', (col) => col.primaryKey())
    .addColumn('type', 'varchar(64)', (col) => col.notNull())
    .addColumn('received_at', 'varchar(32)', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('local_checkout_sessions')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(64)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    .addColumn('plan_id', 'varchar(16)')
    .addColumn('customer_id', 'varchar(255)', (col) => col.notNull())
    .addColumn('return_url', 'text')
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'local_checkout_sessions',
    'payment_events',
    'subscription_history',
    'invoices',
    'subscriptions',
    'billing_customers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
