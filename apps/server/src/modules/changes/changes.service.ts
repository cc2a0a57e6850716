import { CHANGES_PAGE_MAX, type ChangesResponse } from '@cloudvault/contract/changes';
import { AppError } from '../../lib/errors.ts';
import { decodeCursor, encodeCursor } from './change-cursors.ts';
import type { ChangeListeners } from './change-listeners.ts';
import { presentChange } from './changes.presenter.ts';
import type { ChangesRepository } from './changes.repository.ts';
import { createKeepAlives } from './keep-alives.ts';

/** What a stream is given to send its pages. */
export interface StreamSink {
  send(page: ChangesResponse): void;
}

/** How long a stream waits for a wake-up before it takes its turn again: only a cap on one timer, never a read. */
const STREAM_WAIT_MS = 15 * 60_000;

const cursorExpired = () =>
  new AppError(
    410,
    'CURSOR_EXPIRED',
    'This cursor is older than the changes the server keeps. List everything again and ask for /api/changes/latest.',
  );

/**
 * The change feed (docs/api.md#change-feed; docs/decisions/0060-change-journal.md): pages
 * after a cursor, a wait that a notification ends, and streams. Requests of the same
 * account at the same position share one read, so a change that wakes a thousand
 * waiting clients costs the database one query per position, not a thousand.
 */
export function createChangesService(deps: {
  changes: Pick<ChangesRepository, 'head' | 'after'>;
  listeners: ChangeListeners;
  keepAliveMs: number;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const reads = new Map<string, Promise<ChangesResponse>>();
  const keepAlives = createKeepAlives(deps.keepAliveMs);

  const readPage = (userId: string, seq: number, limit: number): Promise<ChangesResponse> => {
    const key = `${userId}:${seq}:${limit}`;
    const shared = reads.get(key);
    if (shared) return shared;
    const read = (async () => {
      const head = await deps.changes.head(userId);
      if (seq < head.prunedThrough || seq > head.seq) throw cursorExpired();
      const rows = await deps.changes.after(userId, seq, limit + 1);
      // Entries are numbered without gaps: a page that does not start right after the cursor
      // lost entries to the retention job between the two reads (change-retention.ts).
      if (rows.length > 0 && Number(rows[0]!.seq) !== seq + 1) throw cursorExpired();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        changes: page.map(presentChange),
        cursor: encodeCursor(userId, last ? Number(last.seq) : seq),
        hasMore: rows.length > limit,
      };
    })().finally(() => reads.delete(key));
    reads.set(key, read);
    return read;
  };

  const parseLimit = (limit: string | undefined): number => {
    if (limit === undefined) return CHANGES_PAGE_MAX;
    const value = Number(limit);
    if (value < 1 || value > CHANGES_PAGE_MAX) throw new AppError(400, 'INVALID_LIMIT', `limit must be between 1 and ${CHANGES_PAGE_MAX}.`);
    return value;
  };

  return {
    /** The position of now: nothing before it. */
    async latest(userId: string): Promise<{ cursor: string }> {
      const head = await deps.changes.head(userId);
      return { cursor: encodeCursor(userId, head.seq) };
    },

    /** The changes after `cursor`; with `waitMs` and none yet, waits for one until the time is up or the client leaves. */
    async after(
      userId: string,
      cursor: string,
      options: { limit?: string; waitMs: number; signal?: AbortSignal },
    ): Promise<ChangesResponse> {
      const seq = decodeCursor(cursor, userId);
      const limit = parseLimit(options.limit);
      if (options.waitMs <= 0) return readPage(userId, seq, limit);
      const ticket = deps.listeners.enter(userId);
      try {
        const deadline = now() + options.waitMs;
        for (;;) {
          const page = await readPage(userId, seq, limit);
          const remaining = deadline - now();
          if (page.changes.length > 0 || remaining <= 0 || options.signal?.aborted) return page;
          await ticket.next(remaining, options.signal);
        }
      } finally {
        ticket.leave();
      }
    },

    /** Calls `write` every keep-alive interval (one timer for all streams) until the returned function is called. */
    keepAlive: (write: () => void): (() => void) => keepAlives.add(write),

    /**
     * Checks the cursor (400, 410) and takes a listener's place (429) before a stream
     * starts, so those refusals are ordinary JSON answers; then `run` sends every page
     * after it as it comes, until the client leaves or `signal` aborts.
     */
    async openStream(userId: string, cursor: string): Promise<{ run(sink: StreamSink, signal: AbortSignal): Promise<void> }> {
      let seq = decodeCursor(cursor, userId);
      await readPage(userId, seq, 1);
      const ticket = deps.listeners.enter(userId);
      return {
        async run(sink, signal) {
          try {
            let woken = true;
            while (!signal.aborted) {
              if (woken) {
                const page = await readPage(userId, seq, CHANGES_PAGE_MAX);
                if (page.changes.length > 0) {
                  seq = decodeCursor(page.cursor, userId);
                  sink.send(page);
                  if (page.hasMore) continue;
                }
              }
              woken = await ticket.next(STREAM_WAIT_MS, signal);
            }
          } finally {
            ticket.leave();
          }
        },
      };
    },
  };
}

export type ChangesService = ReturnType<typeof createChangesService>;
