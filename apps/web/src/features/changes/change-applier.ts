import type { QueryClient } from '@tanstack/react-query';
import type { Change } from '@cloudvault/contract/changes';
import { notificationKeys, sessionKey } from '../../lib/query-keys';
import { cachedListings, keysTouchedBy } from './change-keys';

/** Changes arriving this close together (the pages of a large copy) are applied as one batch. */
export const BATCH_MS = 100;
/**
 * The bell asks once more this long after a new share: the server writes the recipient's
 * notification just after the share (and its feed entry) commits, so the first ask may come
 * before it exists.
 */
export const NOTIFICATION_RECHECK_MS = 1500;

export interface ChangeApplier {
  add(changes: readonly Change[]): void;
  /** The feed was reset: every answer but the session may be out of date. */
  invalidateEverything(): void;
  dispose(): void;
}

/** Applies changes to the query cache by invalidating only what they touched, a burst at a time. */
export function createChangeApplier(queryClient: QueryClient): ChangeApplier {
  let pending: Change[] = [];
  let timer: number | undefined;
  let recheck: number | undefined;

  const flush = () => {
    timer = undefined;
    const batch = pending;
    pending = [];
    const { keys, newShare } = keysTouchedBy(batch, cachedListings(queryClient));
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
    if (newShare) {
      window.clearTimeout(recheck);
      recheck = window.setTimeout(() => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }), NOTIFICATION_RECHECK_MS);
    }
  };

  return {
    add(changes) {
      if (changes.length === 0) return;
      pending.push(...changes);
      timer ??= window.setTimeout(flush, BATCH_MS);
    },
    invalidateEverything() {
      window.clearTimeout(timer);
      timer = undefined;
      pending = [];
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== sessionKey[0] || query.queryKey[1] !== sessionKey[1],
      });
    },
    dispose() {
      window.clearTimeout(timer);
      window.clearTimeout(recheck);
      timer = undefined;
      pending = [];
    },
  };
}
