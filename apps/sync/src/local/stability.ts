/**
 * Whether a local file has stopped changing: one still being written (a download by a
 * browser, a long save) is not uploaded half-done; the engine defers it to the next pass.
 */
import path from 'node:path';
import type { LocalEntry } from '../model.ts';
import { diskStats } from './disk-stats.ts';
import type { LocalPath } from './names.ts';

/**
 * A file modified more recently than this is not stable yet. One second: a change on one
 * device must be on another's disk within 2 s (issue 39), and a file that is still written
 * after a longer pause is caught anyway: uploads carry the hash the scan read, so bytes that
 * changed since are refused (HASH_MISMATCH, tus: CHANGED_WHILE_UPLOADING) and the next pass
 * takes the finished file.
 */
export const SETTLE_MS = 1000;
/** The gap between the two looks of the second check. */
export const RECHECK_MS = 500;

/**
 * False when the file's mtime is within SETTLE_MS of `nowMs`. An mtime further in the future
 * (a clock that was ahead, a copy that kept its times) says nothing either way: stable here,
 * left to confirmStable.
 */
export function hasSettled(entry: Pick<LocalEntry, 'mtimeMs'>, nowMs: number): boolean {
  return Math.abs(nowMs - entry.mtimeMs) >= SETTLE_MS;
}

/** What a second look found. */
export interface StabilityCheck<T> {
  stable: T[];
  /** Changed (or gone) between the scan and the second look, or modified too recently: the next pass takes them. */
  deferred: T[];
}

/**
 * The engine's check before uploading: files modified within SETTLE_MS are deferred; the
 * others are looked at again after `RECHECK_MS` (one wait for the whole batch) and deferred
 * if their size, mtime or inode moved since the scan. `sleep` and `nowMs` are injected so
 * tests decide time.
 */
export async function confirmStable<T extends { entry: LocalEntry; localPath: LocalPath }>(
  root: string,
  candidates: T[],
  clock: { nowMs: () => number; sleep: (ms: number) => Promise<void> },
): Promise<StabilityCheck<T>> {
  const now = clock.nowMs();
  const settled = candidates.filter(({ entry }) => hasSettled(entry, now));
  const deferred = candidates.filter(({ entry }) => !hasSettled(entry, now));
  if (settled.length === 0) return { stable: [], deferred };
  await clock.sleep(RECHECK_MS);
  const stable: T[] = [];
  for (const candidate of settled) {
    const { entry } = candidate;
    const stats = await diskStats(path.join(root, candidate.localPath)).catch(() => undefined);
    const same = stats !== undefined && stats.size === entry.size && stats.mtimeMs === entry.mtimeMs && stats.inode === entry.inode;
    (same ? stable : deferred).push(candidate);
  }
  return { stable, deferred };
}
