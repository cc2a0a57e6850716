import type { Kysely, Transaction } from 'kysely';
import type { AdminAuditTable, Database } from './schema.ts';

/** One entry of the operator console's audit log (docs/decisions/0029-operator-console.md). */
export type AuditEntryRow = AdminAuditTable;

/**
 * Writes an operator's audit entry in the transaction that makes the change it records, so
 * both commit or neither does: an action never lands without its entry, and an entry never
 * names an action that was rolled back. The module that owns the change calls it, since
 * the admin module cannot reach into another's transaction.
 */
export async function recordAuditEntry(trx: Transaction<Database> | Kysely<Database>, entry: AuditEntryRow | undefined): Promise<void> {
  if (entry) await trx.insertInto('admin_audit').values(entry).execute();
}
