import type { ChangesResponse } from '@cloudvault/contract/changes';
import { ApiError } from '../../lib/api-client';
import type { SseEvent } from './sse-parser';

/**
 * One tab's connection to its change feed (docs/api.md#change-feed), outside React: takes
 * the position of now, reads the stream after it, and when the stream breaks (network lost,
 * laptop asleep, server restarted) reconnects from the last cursor it was given, so nothing
 * committed meanwhile is missed. Reconnects back off exponentially with jitter from 1 s to
 * 30 s, and go at once when the browser is online again or the tab is shown again.
 */

export const BACKOFF_MIN_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** Twice the server's keep-alive (25 s) and some: a stream silent this long is dead. */
export const SILENCE_LIMIT_MS = 65_000;
/** Longer than one keep-alive: a stream silent this long when the tab is shown again slept with the machine. */
export const SLEPT_MS = 30_000;

/** How long to wait before reconnect number `attempt` (0 for the first): half fixed, half random. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export interface ChangeFeedTransport {
  latest(signal: AbortSignal): Promise<{ cursor: string }>;
  stream(
    cursor: string,
    handlers: { onEvent: (event: SseEvent) => void; onOpen: () => void; onBytes: () => void },
    signal: AbortSignal,
  ): Promise<void>;
}

export interface ChangeStreamHandlers {
  /** A page of changes; its cursor is where the stream resumes. */
  onChanges(page: ChangesResponse): void;
  /** The cursor expired: whatever the tab shows may be out of date. Called once a new cursor is held. */
  onReset(): void;
}

export interface ChangeStream {
  /**
   * Reconnects at once if the stream is down (online again, tab shown again), or if it has
   * been silent past a keep-alive (the machine slept: its connection is likely dead).
   */
  wake(): void;
  /** Drops the connection now (the browser went offline) and waits for wake() or the backoff. */
  drop(): void;
  stop(): void;
}

/** Thrown inside to end an attempt that must take a new cursor (expired, or refused as malformed). */
class CursorGone extends Error {}

export function startChangeStream(
  transport: ChangeFeedTransport,
  handlers: ChangeStreamHandlers,
  random: () => number = Math.random,
): ChangeStream {
  const stopped = new AbortController();
  let cursor: string | null = null;
  /** The tab had a cursor that expired: once a new one is held, everything is read again. */
  let resetDue = false;
  let attempt = 0;
  let attemptAbort: AbortController | null = null;
  let wakeUp: (() => void) | null = null;
  /** When the open stream last sent anything (a keep-alive included). */
  let lastHeard = 0;
  /** The attempt was dropped to reconnect at once. */
  let reconnectNow = false;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        window.clearTimeout(timer);
        stopped.signal.removeEventListener('abort', done);
        wakeUp = null;
        resolve();
      };
      const timer = window.setTimeout(done, ms);
      stopped.signal.addEventListener('abort', done);
      wakeUp = done;
    });

  /** One connection: resolves when it ends, however it ends; throws what decides the next one. */
  const connect = async (signal: AbortSignal) => {
    if (cursor === null) {
      cursor = (await transport.latest(signal)).cursor;
      if (resetDue) {
        resetDue = false;
        handlers.onReset();
      }
    }
    let silence = 0;
    const watch = new AbortController();
    const onAbort = () => watch.abort();
    signal.addEventListener('abort', onAbort);
    const heard = () => {
      lastHeard = Date.now();
      window.clearTimeout(silence);
      silence = window.setTimeout(() => watch.abort(), SILENCE_LIMIT_MS);
    };
    let expired = false;
    try {
      heard();
      await transport.stream(
        cursor,
        {
          onOpen: () => {
            attempt = 0;
          },
          onBytes: heard,
          onEvent: (event) => {
            if (event.event === 'reset') {
              expired = true;
              return;
            }
            if (event.event !== 'changes') return;
            const page = JSON.parse(event.data) as ChangesResponse;
            cursor = page.cursor;
            handlers.onChanges(page);
          },
        },
        watch.signal,
      );
    } finally {
      window.clearTimeout(silence);
      signal.removeEventListener('abort', onAbort);
    }
    if (expired) throw new CursorGone();
  };

  const run = async () => {
    while (!stopped.signal.aborted) {
      attemptAbort = new AbortController();
      const onStop = () => attemptAbort?.abort();
      stopped.signal.addEventListener('abort', onStop);
      let delay: number;
      try {
        await connect(attemptAbort.signal);
        // The server ended the stream (a restart): back soon, from the same cursor.
        delay = backoffDelay(attempt++, random);
      } catch (error) {
        if (stopped.signal.aborted) return;
        if (error instanceof CursorGone || (error instanceof ApiError && (error.status === 410 || error.status === 400))) {
          // 410: older than the journal keeps; 400: not a cursor this server reads. Start again from now.
          cursor = null;
          resetDue = true;
          continue;
        }
        // Signed out (api-client has handled it) or another account: nothing more to follow.
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return;
        // 429: this account holds as many streams as the server allows (other tabs, devices);
        // the server's Retry-After is the longest backoff.
        delay = error instanceof ApiError && error.status === 429 ? BACKOFF_MAX_MS : backoffDelay(attempt++, random);
      } finally {
        stopped.signal.removeEventListener('abort', onStop);
        attemptAbort = null;
      }
      if (reconnectNow) {
        reconnectNow = false;
        attempt = 0;
        continue;
      }
      await pause(delay);
    }
  };
  void run();

  return {
    wake() {
      if (wakeUp) {
        attempt = 0;
        wakeUp();
      } else if (attemptAbort && lastHeard > 0 && Date.now() - lastHeard > SLEPT_MS) {
        reconnectNow = true;
        attemptAbort.abort();
      }
    },
    drop() {
      attemptAbort?.abort();
    },
    stop() {
      stopped.abort();
    },
  };
}
