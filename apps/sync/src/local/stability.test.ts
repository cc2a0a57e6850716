import { appendFile, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalEntry } from '../model.ts';
import { diskStats } from './disk-stats.ts';
import { confirmStable, hasSettled, RECHECK_MS, SETTLE_MS } from './stability.ts';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function entryOf(name: string, content: string, mtime: Date): Promise<{ entry: LocalEntry; localPath: string }> {
  if (!root) throw new Error('no folder yet');
  await writeFile(path.join(root, name), content);
  await utimes(path.join(root, name), mtime, mtime);
  const stats = await diskStats(path.join(root, name));
  if (!stats) throw new Error('written file missing');
  return { localPath: name, entry: { path: name, kind: 'file', size: stats.size, mtimeMs: stats.mtimeMs, inode: stats.inode } };
}

describe('stability', () => {
  it('holds back a file modified within the last two seconds', () => {
    const now = 1_000_000;
    expect(hasSettled({ mtimeMs: now - SETTLE_MS + 1 }, now)).toBe(false);
    expect(hasSettled({ mtimeMs: now - SETTLE_MS }, now)).toBe(true);
    expect(hasSettled({ mtimeMs: now + 60_000 }, now)).toBe(true);
  });

  it('defers recent files and files that change between two looks, passes the others', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cv-stable-'));
    root = dir;
    const now = Date.now();
    const old = new Date(now - 60_000);
    const quiet = await entryOf('quiet.txt', 'q', old);
    const growing = await entryOf('growing.txt', 'g', old);
    const recent = await entryOf('recent.txt', 'r', new Date(now - 100));
    const slept: number[] = [];
    const result = await confirmStable(dir, [quiet, growing, recent], {
      nowMs: () => now,
      // The writer is still at it while the engine waits.
      sleep: async (ms) => {
        slept.push(ms);
        await appendFile(path.join(dir, 'growing.txt'), 'more');
      },
    });
    expect(slept).toEqual([RECHECK_MS]);
    expect(result.stable.map((c) => c.localPath)).toEqual(['quiet.txt']);
    expect(result.deferred.map((c) => c.localPath).sort()).toEqual(['growing.txt', 'recent.txt']);
  });
});
