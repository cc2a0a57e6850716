import { normalizeEmail } from '@cloudvault/contract/validation';
import type { AuditEntryRow } from '../../db/admin-audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { auditRow, type Operator } from './audit-rows.ts';

/**
 * `npm run admin -- grant|revoke <email>` (docs/decisions/0029-operator-console.md): the
 * operator role kept in the database, for deployments that prefer it to ADMIN_EMAILS; each
 * change is audited with the command line as the operator.
 */
export function createOperatorRoles(deps: {
  /** The accounts module's repository in the command line, which has no server around it. */
  users: {
    findUserByEmail(email: string): Promise<{ id: string; email: string } | undefined>;
    /** Changes the role and writes the audit entry in one transaction. */
    setRole(userId: string, role: 'user' | 'admin', nowIso: string, audit: AuditEntryRow): Promise<void>;
  };
  clock: Clock;
}) {
  const commandLine: Operator = { id: null, email: null };
  return {
    async setRole(email: string, role: 'user' | 'admin'): Promise<void> {
      const user = await deps.users.findUserByEmail(normalizeEmail(email));
      if (!user) throw notFound(`No account has the address ${email}.`, 'USER_NOT_FOUND');
      const at = deps.clock.now().toISOString();
      await deps.users.setRole(user.id, role, at, auditRow(commandLine, role === 'admin' ? 'grant_role' : 'revoke_role', user, at));
    },
  };
}
