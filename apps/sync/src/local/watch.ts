/**
 * A hint that something on disk changed, so the engine rescans sooner than its timer would.
 * Only a hint: events can be lost, merged or late, and the engine always confirms by
 * scanning. The native watcher (@parcel/watcher: inotify, FSEvents, ReadDirectoryChangesW)
 * is used when it loads; otherwise a timer hints every `pollMs`, which makes the engine
 * rescan on that beat.
 */
import path from 'node:path';
import { PRIVATE_DIR } from './ignore-rules.ts';

export interface LocalWatch {
  mode: 'native' | 'polling';
  stop(): Promise<void>;
}

export interface WatchOptions {
  /** The polling fallback's beat. */
  pollMs?: number;
  /** Where a native watcher failing to load is said (the mode is also answered). */
  warn?: (message: string) => void;
  /** Only for tests: act as if the native watcher could not load. */
  forcePolling?: boolean;
}

/**
 * Calls `onHint` with the local paths (relative, `/`-separated) some change touched, the
 * private area left out; a polling hint has no paths.
 */
export async function watchLocal(root: string, onHint: (paths: string[]) => void, options: WatchOptions = {}): Promise<LocalWatch> {
  const { pollMs = 30_000, warn = () => {}, forcePolling = false } = options;
  try {
    if (forcePolling) throw new Error('polling asked for');
    const watcher = await import('@parcel/watcher');
    const subscription = await watcher.subscribe(
      root,
      (error, events) => {
        // A watcher error (an overflowed queue) loses events: a hint without paths asks for a full rescan.
        if (error) return onHint([]);
        const paths = events.map((event) => path.relative(root, event.path).split(path.sep).join('/'));
        const relevant = paths.filter((p) => p !== PRIVATE_DIR && !p.startsWith(`${PRIVATE_DIR}/`));
        if (relevant.length > 0) onHint(relevant);
      },
      { ignore: [PRIVATE_DIR] },
    );
    return { mode: 'native', stop: () => subscription.unsubscribe() };
  } catch (error) {
    if (!forcePolling)
      warn(`Watching the disk natively failed (${(error as Error).message}); rescanning every ${Math.round(pollMs / 1000)} s instead`);
    const timer = setInterval(() => onHint([]), pollMs);
    return { mode: 'polling', stop: async () => clearInterval(timer) };
  }
}
