import { randomUUID } from 'node:crypto';
import { ERRORS, type Lock, type Locker } from '@tus/utils';
import type { LimitWindows } from '../limit-windows/limit-windows.ts';

export interface UploadLockerOptions {
  /** How long a lock lives unrenewed: the holder renews it every third of this; a node that dies holding one frees it after this. */
  leaseMs: number;
  /** How long a request waits for another one's lock before it gives up. */
  waitMs: number;
  pollMs: number;
}

/**
 * One lock per tus upload, held across every node: a lease in the limit windows (Redis
 * when REDIS_URL is set, else the database; docs/decisions/0019), so whichever node takes
 * it first holds it and the others wait. The lease is renewed while held, so a long PATCH
 * keeps it, and lapses soon after a node dies. Each lock names its holder: a node that
 * stalled past its lease finds, when it wakes, that its renewal and unlock leave the next
 * holder's lease alone. A waiting request does not make the holder let go (tus's
 * `requestRelease` would need a message between nodes); it waits `waitMs`, then answers
 * 500 as tus does.
 */
export function createUploadLocker(windows: LimitWindows, options: UploadLockerOptions): Locker {
  return {
    newLock(id: string): Lock {
      const key = `tus-lock:${id}`;
      const holder = randomUUID();
      let renewal: NodeJS.Timeout | undefined;
      return {
        async lock(signal) {
          for (let waited = 0; ; waited += options.pollMs) {
            if (await windows.takeLease(key, holder, options.leaseMs)) {
              const renewing = setInterval(() => {
                // A failed renewal is retried at the next tick; the lease's other two thirds leave room for that.
                windows.renewLease(key, holder, options.leaseMs).then(
                  (renewed) => renewed || clearInterval(renewing),
                  () => {},
                );
              }, options.leaseMs / 3);
              renewing.unref();
              renewal = renewing;
              return;
            }
            if (signal.aborted) throw ERRORS.ABORTED;
            if (waited >= options.waitMs) throw ERRORS.ERR_LOCK_TIMEOUT;
            await new Promise((resolve) => setTimeout(resolve, options.pollMs));
          }
        },
        async unlock() {
          if (!renewal) return;
          clearInterval(renewal);
          renewal = undefined;
          await windows.releaseLease(key, holder);
        },
      };
    },
  };
}
