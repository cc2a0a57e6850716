import { AppError } from '../../lib/errors.ts';

/**
 * The waiting requests and open streams of this node, by account (docs/decisions/0060-change-journal.md).
 * The database's notifications (db/change-signals.ts) wake those of the accounts they
 * name; nothing here polls. Each listener is a ticket taken before its first read, so a
 * change committed between that read and the wait is not missed: the ticket remembers it.
 */
export interface ListenerTicket {
  /** Resolves true at the next wake-up since the last call (at once if one came meanwhile), false when `ms` pass or `signal` aborts. */
  next(ms: number, signal?: AbortSignal): Promise<boolean>;
  /** Gives the place back; call it once, in a finally. */
  leave(): void;
}

export interface ChangeListeners {
  /** A ticket for this account; 429 with Retry-After beyond the account's or the node's bound. */
  enter(userId: string): ListenerTicket;
  /** Wakes the listeners of these accounts, or all of them. */
  wake(accounts: readonly string[] | '*'): void;
  /** Listeners held now (metrics, tests). */
  count(): number;
}

interface Listener {
  pending: boolean;
  resolve: ((woken: boolean) => void) | undefined;
}

const tooMany = (message: string) => new AppError(429, 'TOO_MANY_LISTENERS', message, {}, { 'Retry-After': '30' });

export function createChangeListeners(limits: { perAccount: number; perNode: number }): ChangeListeners {
  const byAccount = new Map<string, Set<Listener>>();
  let total = 0;

  const wakeOne = (listener: Listener) => {
    if (listener.resolve) listener.resolve(true);
    else listener.pending = true;
  };

  return {
    enter(userId) {
      const own = byAccount.get(userId) ?? new Set<Listener>();
      if (own.size >= limits.perAccount) {
        throw tooMany(
          `This account already has ${limits.perAccount} connections waiting for changes. Close a tab or device and try again.`,
        );
      }
      if (total >= limits.perNode)
        throw tooMany('The server is holding as many connections waiting for changes as it can. Please try again shortly.');
      const listener: Listener = { pending: false, resolve: undefined };
      own.add(listener);
      byAccount.set(userId, own);
      total++;
      let left = false;
      return {
        next(ms, signal) {
          if (listener.pending || signal?.aborted) {
            const woken = listener.pending;
            listener.pending = false;
            return Promise.resolve(woken);
          }
          return new Promise<boolean>((resolve) => {
            const finish = (woken: boolean) => {
              clearTimeout(timer);
              signal?.removeEventListener('abort', onAbort);
              listener.resolve = undefined;
              resolve(woken);
            };
            const onAbort = () => finish(false);
            const timer = setTimeout(() => finish(false), ms);
            signal?.addEventListener('abort', onAbort, { once: true });
            listener.resolve = finish;
          });
        },
        leave() {
          if (left) return;
          left = true;
          listener.resolve?.(false);
          own.delete(listener);
          if (own.size === 0) byAccount.delete(userId);
          total--;
        },
      };
    },
    wake(accounts) {
      if (accounts === '*') {
        for (const own of byAccount.values()) own.forEach(wakeOne);
        return;
      }
      for (const userId of accounts) byAccount.get(userId)?.forEach(wakeOne);
    },
    count: () => total,
  };
}
