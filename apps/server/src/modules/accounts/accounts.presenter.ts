import type { User } from '@cloudvault/contract/accounts';
import type { PlanId } from '@cloudvault/contract/plans';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { UserRow } from './accounts.repository.ts';

/** The lower-cased addresses of ADMIN_EMAILS. */
export type AdminEmails = ReadonlySet<string>;

/**
 * An operator: granted in the database (`npm run admin -- grant`), or listed in
 * ADMIN_EMAILS with the address verified, so whoever registers a listed address first is not made one.
 */
export function isAdmin(row: UserRow, admins: AdminEmails): boolean {
  return isConfiguredAdmin(row, admins) || row.single_sign_on_operator === 1;
}

/** An operator by the server's own word (the database or ADMIN_EMAILS), not the provider's groups: who keeps password sign-in. */
export function isConfiguredAdmin(row: UserRow, admins: AdminEmails): boolean {
  return row.role === 'admin' || (row.email_verified_at !== null && admins.has(row.email.toLowerCase()));
}

/**
 * Exactly the user fields that leave the server: never the password hash.
 */
export function presentUser(row: UserRow, plans: PlanCatalogue, admins: AdminEmails): User {
  const plan = plans.get(row.plan_id);
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    createdAt: row.created_at,
    plan: plan.id as PlanId,
    storageUsed: Number(row.storage_used),
    storageLimit: plan.storageLimit,
    twoFactorEnabled: Boolean(row.two_factor_enabled),
    emailVerified: row.email_verified_at !== null,
    role: isAdmin(row, admins) ? 'admin' : 'user',
    hasPassword: row.password_set !== 0,
  };
}
