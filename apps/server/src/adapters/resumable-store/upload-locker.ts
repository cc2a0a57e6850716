import { ERRORS, type Lock, type Locker } from '@tus/utils';
import type { LimitWindows } from '../limit-windows/limit-windows.ts';

export interface UploadLockerOptions {
  /** How long a lock lives unreleased: a node that dies holding one frees it after this. */
  leaseMs: number;
  /** How long a request waits for another one's lock before it gives up. */
  waitMs: number;
  pollMs: number;
}

/**
 * One lock per tus upload, held across every node: a limit window with a cap of one
 * (Redis when REDIS_URL is set, else the database; docs/decisions/0019), so whichever node
 * counts first holds it and the others wait. The window's end is the lease a dead node's
 * lock lapses at. A waiting request does not make the holder let go (tus's `requestRelease`
 * would need a message between nodes); it waits `waitMs`, then answers 500 as tus does.
 */
export function createUploadLocker(windows: LimitWindows, options: UploadLockerOptions): Locker {
  return {
    newLock(id: string): Lock {
      const key = `tus-lock:${id}`;
      let held = false;
      return {
        async lock(signal) {
          for (let waited = 0; ; waited += options.pollMs) {
            if ((await windows.count(key, options.leaseMs, 1)).counted) {
              held = true;
              return;
            }
            if (signal.aborted) throw ERRORS.ABORTED;
            if (waited >= options.waitMs) throw ERRORS.ERR_LOCK_TIMEOUT;
            await new Promise((resolve) => setTimeout(resolve, options.pollMs));
          }
        },
        async unlock() {
          if (!held) return;
          held = false;
          await windows.clear(key);
        },
      };
    },
  };
}
