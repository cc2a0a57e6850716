import { describe, expect, it } from 'vitest';
import type { Action } from '../model.ts';
import { dependencies, runScheduled } from './schedule.ts';

const mkdir = (path: string): Action => ({ type: 'mkdirRemote', path });
const upload = (path: string): Action => ({ type: 'upload', path, size: 1, hash: 'h' });

describe('dependencies', () => {
  it('makes work inside a folder wait for the folder, and unrelated work wait for nothing', () => {
    const actions = [
      mkdir('A'),
      mkdir('A/B'),
      upload('A/B/x'),
      upload('C'),
      { type: 'deleteRemote', path: 'A', kind: 'folder', remoteId: 'r' } as Action,
    ];
    expect(dependencies(actions)).toEqual([[], [0], [1], [], [2, 1]].map((list) => expect.arrayContaining(list)));
    expect(dependencies(actions)[3]).toEqual([]);
  });

  it('makes a move wait for both its ends, and what follows wait for the move', () => {
    const actions: Action[] = [upload('a/x'), { type: 'moveRemote', from: 'a', to: 'b', kind: 'folder', remoteId: 'r' }, upload('b/y')];
    expect(dependencies(actions)).toEqual([[], [0], [1]]);
  });
});

describe('runScheduled', () => {
  it('starts an action only after those it waits for, and skips what waits for a failure', async () => {
    const order: string[] = [];
    const actions = [mkdir('A'), upload('A/x'), mkdir('B'), upload('B/y'), upload('C')];
    const outcomes = await runScheduled(actions, async (action) => {
      if (action.type === 'mkdirRemote' && action.path === 'B') throw new Error('refused');
      order.push((action as { path: string }).path);
    });
    expect(order.indexOf('A')).toBeLessThan(order.indexOf('A/x'));
    expect(order).not.toContain('B/y');
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, false, false, true]);
    expect(outcomes[3]).toEqual({ ok: false, error: 'waits for B, which failed', skipped: true });
  });

  it('keeps no more than the lane limit in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const actions = Array.from({ length: 20 }, (_, index) => mkdir(`d${index}`));
    await runScheduled(
      actions,
      async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
      },
      { transfer: 8, tree: 3, bookkeeping: 8 },
    );
    expect(most).toBe(3);
  });

  it('answers at once for an empty plan', async () => {
    expect(await runScheduled([], async () => undefined)).toEqual([]);
  });
});
