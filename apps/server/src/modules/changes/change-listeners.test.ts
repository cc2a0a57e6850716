import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { createChangeListeners } from './change-listeners.ts';

afterEach(() => vi.useRealTimers());

describe('change listeners', () => {
  it('wake the listeners of the accounts named, or every listener, and not others', async () => {
    const listeners = createChangeListeners({ perAccount: 5, perNode: 10 });
    const ada = listeners.enter('ada');
    const bob = listeners.enter('bob');
    const adaWoken = ada.next(60_000);
    const bobWoken = bob.next(60_000);
    listeners.wake(['ada', 'carol']);
    expect(await adaWoken).toBe(true);
    listeners.wake('*');
    expect(await bobWoken).toBe(true);
  });

  it('remember a wake-up that came before the wait, so a change between a read and the wait is not missed', async () => {
    const listeners = createChangeListeners({ perAccount: 5, perNode: 10 });
    const ticket = listeners.enter('ada');
    listeners.wake(['ada']);
    expect(await ticket.next(60_000)).toBe(true);
    vi.useFakeTimers();
    const second = ticket.next(1_000);
    vi.advanceTimersByTime(1_000);
    expect(await second).toBe(false);
  });

  it('end a wait when its signal aborts', async () => {
    const listeners = createChangeListeners({ perAccount: 5, perNode: 10 });
    const controller = new AbortController();
    const waiting = listeners.enter('ada').next(60_000, controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
  });

  it('refuse with 429 and Retry-After beyond the account’s and the node’s bound, and give places back on leave', () => {
    const listeners = createChangeListeners({ perAccount: 2, perNode: 3 });
    const first = listeners.enter('ada');
    listeners.enter('ada');
    const overAccount = (() => {
      try {
        listeners.enter('ada');
      } catch (error) {
        return error as AppError;
      }
    })();
    expect(overAccount).toMatchObject({ status: 429, code: 'TOO_MANY_LISTENERS', headers: { 'Retry-After': expect.any(String) } });
    listeners.enter('bob');
    expect(() => listeners.enter('carol')).toThrow(AppError);
    first.leave();
    first.leave();
    expect(listeners.count()).toBe(2);
    expect(() => listeners.enter('carol')).not.toThrow();
  });
});
