/**
 * Continuous mode: a pass whenever something may have changed, and otherwise waiting. The
 * disk's watcher hint (debounced) and the server's change feed wake a pass; a full pass every
 * ten minutes is the safety net for hints lost on the way. SIGINT or SIGTERM let the pass in
 * progress finish, then the command exits 0 (a second signal stops at once).
 */
import type { SqliteDatabase } from '../journal/open-database.ts';
import { SETTLE_MS } from '../local/stability.ts';
import { watchLocal } from '../local/watch.ts';
import type { ApiClient } from '../remote/api-client.ts';
import { followChanges } from '../remote/feed-follower.ts';
import { mirrorCursor } from '../remote/remote-mirror.ts';
import { runPass, type PassDependencies, type PassOptions, type PassResult } from './sync-pass.ts';

/** Disk events come in bursts (a save writes, renames, sets times): one pass after the burst. */
export const DEBOUNCE_MS = 300;
/** The safety net's beat. */
export const FULL_PASS_EVERY_MS = 10 * 60_000;

export interface ContinuousParts {
  api: ApiClient;
  db: SqliteDatabase;
  /** The synced folder on disk. */
  root: string;
  /** The line a pass's result is logged as. */
  describe: (result: PassResult) => string;
}

/** Keeps the pair in sync until a signal; answers the exit code. */
export async function runContinuous(deps: PassDependencies, options: PassOptions, parts: ContinuousParts): Promise<number> {
  const stop = new AbortController();
  let dirty = true;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let fatal: Error | undefined;
  const soon = (delayMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      dirty = true;
      wake?.();
    }, delayMs);
  };
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    deps.progress.note('Stopping after the current step…');
    stop.abort();
    wake?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const watch = await watchLocal(parts.root, () => soon(DEBOUNCE_MS), { warn: (message) => deps.progress.note(message) });
  const safetyNet = setInterval(() => soon(0), FULL_PASS_EVERY_MS);
  let following: Promise<void> | undefined;

  /** Follows the change feed from the mirror's cursor; a reset (cursor expired) is followed again after the next pass lists the drive. */
  const follow = () => {
    const cursor = mirrorCursor(parts.db);
    if (cursor === undefined || following) return;
    following = followChanges(parts.api, cursor, () => soon(0), stop.signal)
      .then((end) => {
        following = undefined;
        if (end === 'reset') soon(0);
      })
      .catch((error: unknown) => {
        following = undefined;
        fatal = error as Error;
        stop.abort();
        wake?.();
      });
  };

  try {
    while (!stop.signal.aborted) {
      if (!dirty) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      dirty = false;
      const result = await runPass(deps, options);
      deps.progress.note(`${new Date().toISOString()} ${parts.describe(result)}`);
      // Files still being written, or failures: look again shortly rather than at the next hint.
      if (result.result === 'pending' || result.result === 'failed') soon(SETTLE_MS);
      follow();
    }
  } finally {
    clearTimeout(timer);
    clearInterval(safetyNet);
    await watch.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  await following?.catch(() => undefined);
  if (fatal) {
    process.stderr.write(`Stopped: ${fatal.message}\n`);
    return 1;
  }
  return 0;
}
