import type { AuditAction, AuditDetails } from '@cloudvault/contract/admin';
import { newId } from '../../lib/ids.ts';
import type { AuditRow } from './admin.repository.ts';

/** Who acts: the operator's id and address, or nulls for the command line. */
export interface Operator {
  id: string | null;
  email: string | null;
}

/** One audit entry: who (operator), when (at), what (action on target) and why (details.reason). */
export function auditRow(
  operator: Operator,
  action: AuditAction,
  target: { id: string; email: string },
  at: string,
  extra: Omit<AuditDetails, 'targetEmail' | 'adminEmail'> = {},
): AuditRow {
  const details: AuditDetails = { targetEmail: target.email, adminEmail: operator.email, ...extra };
  return { id: newId(), admin_id: operator.id, action, target_id: target.id, details: JSON.stringify(details), created_at: at };
}
