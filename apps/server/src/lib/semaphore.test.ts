import { describe, expect, it } from 'vitest';
import { createSemaphore } from './semaphore.ts';

describe('createSemaphore', () => {
  it('lets at most `limit` holders run at once, the rest in arrival order, and frees a slot on failure', async () => {
    const slots = createSemaphore(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const work = (index: number) =>
      slots.run(async () => {
        running += 1;
        most = Math.max(most, running);
        order.push(index);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        if (index === 0) throw new Error('failed');
      });
    const all = [0, 1, 2, 3, 4].map((index) => work(index).catch(() => 'failed'));
    for (let released = 0; released < 5; released++) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    expect(await Promise.all(all)).toEqual(['failed', undefined, undefined, undefined, undefined]);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });
});
