// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangesResponse } from '@cloudvault/contract/changes';
import { ApiError } from '../../lib/api-client';
import { BACKOFF_MAX_MS, backoffDelay, startChangeStream, type ChangeFeedTransport, type ChangeStream } from './change-stream';
import type { SseEvent } from './sse-parser';

/** A stream the test drives: sends events, then ends or fails it. */
interface OpenStream {
  cursor: string;
  send(event: SseEvent): void;
  end(): void;
  fail(error: unknown): void;
  signal: AbortSignal;
}

function fakeFeed() {
  const streams: OpenStream[] = [];
  const latest = vi.fn(async () => ({ cursor: `now${latest.mock.calls.length}` }));
  let refuseNext: unknown = null;
  const transport: ChangeFeedTransport = {
    latest,
    stream: (cursor, handlers, signal) =>
      new Promise<void>((resolve, reject) => {
        if (refuseNext) {
          const refusal = refuseNext;
          refuseNext = null;
          reject(refusal);
          return;
        }
        handlers.onOpen();
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        streams.push({
          cursor,
          signal,
          send: (event) => {
            handlers.onBytes();
            handlers.onEvent(event);
          },
          end: resolve,
          fail: reject,
        });
      }),
  };
  return { transport, streams, latest, refuse: (error: unknown) => (refuseNext = error) };
}

const page = (cursor: string, ids: string[]): SseEvent => ({
  event: 'changes',
  id: cursor,
  data: JSON.stringify({
    changes: ids.map((id) => ({ op: 'created', kind: 'file', id, parentId: null, name: id, at: '2026-12-06T10:00:00.000Z' })),
    cursor,
    hasMore: false,
  } satisfies ChangesResponse),
});

/** Lets the stream's promises run, without moving the clock. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

let running: ChangeStream | undefined;
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  running?.stop();
  vi.useRealTimers();
});

describe('the tab’s change stream', () => {
  it('starts from now, hands over each page, and after a break resumes from the last cursor it got', async () => {
    const feed = fakeFeed();
    const pages: ChangesResponse[] = [];
    running = startChangeStream(feed.transport, { onChanges: (p) => pages.push(p), onReset: vi.fn() }, () => 0);
    await settle();
    expect(feed.streams).toHaveLength(1);
    expect(feed.streams[0]!.cursor).toBe('now1');
    feed.streams[0]!.send(page('c1', ['a']));
    feed.streams[0]!.send({ event: 'message', data: 'ignored' });
    feed.streams[0]!.fail(new TypeError('network error'));
    // Backoff: half of 1 s with no jitter, then the same cursor.
    await vi.advanceTimersByTimeAsync(499);
    expect(feed.streams).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(feed.streams).toHaveLength(2);
    expect(feed.streams[1]!.cursor).toBe('c1');
    expect(feed.latest).toHaveBeenCalledTimes(1);
    expect(pages.map((p) => p.changes.map((c) => c.id))).toEqual([['a']]);
  });

  it('on a reset event or a 410 takes a new cursor from now, then says everything must be read again', async () => {
    const feed = fakeFeed();
    const onReset = vi.fn();
    running = startChangeStream(feed.transport, { onChanges: vi.fn(), onReset }, () => 0);
    await settle();
    expect(feed.streams).toHaveLength(1);
    feed.streams[0]!.send({ event: 'reset', data: '{"error":"expired","code":"CURSOR_EXPIRED"}' });
    feed.streams[0]!.end();
    await settle();
    expect(feed.streams).toHaveLength(2);
    expect(feed.streams[1]!.cursor).toBe('now2');
    expect(onReset).toHaveBeenCalledTimes(1);

    feed.refuse(new ApiError(410, 'expired', 'CURSOR_EXPIRED', undefined, 'expired'));
    feed.streams[1]!.fail(new TypeError('network error'));
    await vi.advanceTimersByTimeAsync(500);
    await settle();
    expect(feed.streams).toHaveLength(3);
    expect(feed.streams[2]!.cursor).toBe('now3');
    expect(onReset).toHaveBeenCalledTimes(2);
  });

  it('backs off exponentially to 30 s, and reconnects at once when woken (online again, tab shown)', async () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => backoffDelay(attempt, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(backoffDelay(3, () => 0)).toBe(4000);
    const feed = fakeFeed();
    running = startChangeStream(feed.transport, { onChanges: vi.fn(), onReset: vi.fn() }, () => 1);
    await settle();
    expect(feed.streams).toHaveLength(1);
    feed.streams[0]!.send(page('c7', ['x']));
    // Offline: the stream is dropped, and the next try waits…
    running.drop();
    await vi.advanceTimersByTimeAsync(100);
    expect(feed.streams).toHaveLength(1);
    // …until the browser is online again.
    running.wake();
    await settle();
    expect(feed.streams).toHaveLength(2);
    expect(feed.streams[1]!.cursor).toBe('c7');
    // Woken while connected: nothing changes.
    running.wake();
    await vi.advanceTimersByTimeAsync(100);
    expect(feed.streams).toHaveLength(2);
  });

  it('waits the longest backoff after a 429, and stops for good on a 401 or when stopped', async () => {
    const feed = fakeFeed();
    feed.refuse(new ApiError(429, 'too many', 'TOO_MANY_LISTENERS', undefined, 'too many'));
    running = startChangeStream(feed.transport, { onChanges: vi.fn(), onReset: vi.fn() }, () => 0);
    await vi.advanceTimersByTimeAsync(BACKOFF_MAX_MS - 1);
    expect(feed.streams).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(feed.streams).toHaveLength(1);

    feed.refuse(new ApiError(401, 'signed out', undefined, undefined, 'signed out'));
    feed.streams[0]!.end();
    await vi.advanceTimersByTimeAsync(BACKOFF_MAX_MS * 4);
    expect(feed.streams).toHaveLength(1);

    const other = fakeFeed();
    const stream = startChangeStream(other.transport, { onChanges: vi.fn(), onReset: vi.fn() }, () => 0);
    await settle();
    expect(other.streams).toHaveLength(1);
    stream.stop();
    expect(other.streams[0]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(BACKOFF_MAX_MS * 2);
    expect(other.streams).toHaveLength(1);
  });

  it('gives up on a stream silent for longer than two keep-alives and opens another from its cursor', async () => {
    const feed = fakeFeed();
    running = startChangeStream(feed.transport, { onChanges: vi.fn(), onReset: vi.fn() }, () => 0);
    await settle();
    expect(feed.streams).toHaveLength(1);
    feed.streams[0]!.send(page('c3', ['y']));
    await vi.advanceTimersByTimeAsync(60_000);
    feed.streams[0]!.send({ event: 'changes', data: JSON.stringify({ changes: [], cursor: 'c3', hasMore: false }) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(feed.streams[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(feed.streams[0]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    await settle();
    expect(feed.streams).toHaveLength(2);
    expect(feed.streams[1]!.cursor).toBe('c3');
  });

  it('shown again after a sleep (silent past a keep-alive), drops the stream and opens another at once', async () => {
    const feed = fakeFeed();
    running = startChangeStream(feed.transport, { onChanges: vi.fn(), onReset: vi.fn() }, () => 0);
    await settle();
    feed.streams[0]!.send(page('c5', ['z']));
    // Shown again soon after something came: the stream stays.
    await vi.advanceTimersByTimeAsync(20_000);
    running.wake();
    await settle();
    expect(feed.streams[0]!.signal.aborted).toBe(false);
    // Silent longer than a keep-alive: likely dead after a sleep.
    await vi.advanceTimersByTimeAsync(15_000);
    running.wake();
    await settle();
    expect(feed.streams[0]!.signal.aborted).toBe(true);
    expect(feed.streams).toHaveLength(2);
    expect(feed.streams[1]!.cursor).toBe('c5');
  });
});
