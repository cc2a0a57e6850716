import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalWatch, watchLocal } from './watch.ts';

let root: string;
let watch: LocalWatch | undefined;
afterEach(async () => {
  await watch?.stop();
  watch = undefined;
  await rm(root, { recursive: true, force: true });
});

/** Resolves with the first hint `accept` takes. */
function hintsInto(hints: string[][]) {
  const waiters: { accept: (paths: string[]) => boolean; resolve: (paths: string[]) => void }[] = [];
  const onHint = (paths: string[]) => {
    hints.push(paths);
    for (const waiter of waiters.splice(0)) {
      if (waiter.accept(paths)) waiter.resolve(paths);
      else waiters.push(waiter);
    }
  };
  const next = (accept: (paths: string[]) => boolean) => new Promise<string[]>((resolve) => waiters.push({ accept, resolve }));
  return { onHint, next };
}

describe('watchLocal', () => {
  it('hints at the paths a change touched, the private area left out', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cv-watch-'));
    const hints: string[][] = [];
    const { onHint, next } = hintsInto(hints);
    // Folders made before the watch: inotify learns of a new folder's content only once it watches the folder, a race a hint may lose.
    await mkdir(path.join(root, '.cloudvault', 'tmp'), { recursive: true });
    await mkdir(path.join(root, 'Docs'));
    watch = await watchLocal(root, onHint);
    expect(watch.mode).toBe('native');
    await writeFile(path.join(root, '.cloudvault', 'tmp', 'part'), 'x');
    const seen = next((paths) => paths.includes('Docs/new.txt'));
    await writeFile(path.join(root, 'Docs', 'new.txt'), 'hello');
    await seen;
    expect(hints.flat().filter((p) => p.startsWith('.cloudvault'))).toEqual([]);
  });

  it('falls back to a hint on a beat when the native watcher is not there', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cv-watch-'));
    const { onHint, next } = hintsInto([]);
    watch = await watchLocal(root, onHint, { forcePolling: true, pollMs: 10 });
    expect(watch.mode).toBe('polling');
    expect(await next(() => true)).toEqual([]);
  });
});
