import type { AuditAction, AuditDetails } from '@cloudvault/contract/admin';
import { newId } from '../../lib/ids.ts';
import type { AuditEntryRow } from '../../db/admin-audit.ts';

/** Who acts: the operator's id and address, or nulls for the command line. */
export interface Operator {
  id: string | null;
  email: string | null;
}

/** An operator of the console, signed in: an account, whose password can be asked for. */
export type SignedInOperator = Operator & { id: string };

/** One audit entry: who (operator), when (at), what (action on target) and why (details.reason). */
export function auditRow(
  operator: Operator,
  action: AuditAction,
  target: { id: string; email: string },
  at: string,
  extra: Omit<AuditDetails, 'targetEmail' | 'adminEmail'> = {},
): AuditEntryRow {
  const details: AuditDetails = { targetEmail: target.email, adminEmail: operator.email, ...extra };
  return { id: newId(), admin_id: operator.id, action, target_id: target.id, details: JSON.stringify(details), created_at: at };
}
