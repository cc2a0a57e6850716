import type { AuditEntryRow } from '../../db/admin-audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { SignedInClient } from '../accounts/accounts.service.ts';
import type { AccountDataRepository } from './account-data.repository.ts';

/**
 * DELETE /api/user/account: the paid subscription is ended at the provider first (if that
 * fails, nothing is deleted), then every row of the user in one statement (foreign keys
 * cascade: files, folders, shares, settings, sessions, billing, activity) with its blobs
 * queued for deletion, then the queued bytes are deleted.
 */
export function createAccountDeletionService(deps: {
  data: Pick<AccountDataRepository, 'deleteUser'>;
  /** Deletes every queued blob's bytes (the storage-upkeep service's blob-deletion job). */
  deleteQueuedBlobs(): Promise<unknown>;
  endPaidSubscription(userId: string): Promise<void>;
  /** The account's password again, or a 400 (or 429 after too many wrong ones). */
  confirmPassword(userId: string, password: string, client: SignedInClient): Promise<void>;
  log: ServiceLog;
  clock: Clock;
}) {
  /** The deletion itself, once someone allowed to has confirmed it; an operator's audit entry commits with the rows' deletion. */
  async function erase(userId: string, audit?: AuditEntryRow): Promise<void> {
    try {
      await deps.endPaidSubscription(userId);
    } catch (error) {
      deps.log.error({ err: error, userId }, 'account deletion stopped: the subscription could not be canceled');
      throw new AppError(
        502,
        'SUBSCRIPTION_NOT_CANCELED',
        'Your subscription could not be canceled, so nothing was deleted. Please try again in a few minutes.',
      );
    }
    await deps.data.deleteUser(userId, deps.clock.now().toISOString(), audit);
    // The rows are gone and their blobs queued with them; what this run cannot delete stays
    // queued for the next.
    await deps.deleteQueuedBlobs();
  }

  return {
    /** Needs the account's password: a stolen session alone cannot delete everything. */
    async deleteAccount(userId: string, password: string, client: SignedInClient): Promise<void> {
      await deps.confirmPassword(userId, password, client);
      await erase(userId);
    },

    /** The same deletion, confirmed by an operator's own password (docs/decisions/0029-operator-console.md). */
    deleteAccountAsOperator: (userId: string, audit: AuditEntryRow) => erase(userId, audit),
  };
}

export type AccountDeletionService = ReturnType<typeof createAccountDeletionService>;
