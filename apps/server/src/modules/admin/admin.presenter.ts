import type { AdminUser, AuditAction, AuditDetails, AuditEntry } from '@cloudvault/contract/admin';
import { type AdminEmails, presentUser } from '../accounts/accounts.presenter.ts';
import { isComplimentary } from '../billing/billing.presenter.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { AuditRow, ListedUser } from './admin.repository.ts';

/** A user as operators see them: what the user sees of themselves, and the account's state. */
export function presentAdminUser(row: ListedUser, plans: PlanCatalogue, admins: AdminEmails): AdminUser {
  return {
    ...presentUser(row, plans, admins),
    status: row.suspended_at ? 'suspended' : 'active',
    // '' only for a row written before the column existed and never signed in since.
    lastSignInAt: row.last_sign_in_at || null,
    filesCount: Number(row.files_count),
    suspendedAt: row.suspended_at ?? null,
    complimentary: isComplimentary(row.plan_provider),
    planEndsAt: row.plan_ends_at,
  };
}

export function presentAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    adminId: row.admin_id,
    action: row.action as AuditAction,
    targetId: row.target_id,
    createdAt: row.created_at,
    details: JSON.parse(row.details) as AuditDetails,
  };
}
