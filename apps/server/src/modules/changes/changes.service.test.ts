import { describe, expect, it } from 'vitest';
import type { ChangesTable } from '../../db/schema.ts';
import { refusal } from '../../lib/refusal.testing.ts';
import { encodeCursor } from './change-cursors.ts';
import { createChangeListeners } from './change-listeners.ts';
import { createChangesService, type StreamSink } from './changes.service.ts';
import type { ChangesResponse } from '@cloudvault/contract/changes';

const entry = (seq: number): ChangesTable => ({
  user_id: 'ada',
  seq,
  op: 'created',
  kind: 'folder',
  item_id: `folder-${seq}`,
  parent_id: null,
  name: `Folder ${seq}`,
  share_id: null,
  size: null,
  content_hash: null,
  modified_at: '2026-12-06T10:00:00.000Z',
  at: '2026-12-06T10:00:00.000Z',
});

/** The feed over an in-memory journal of one account; `reads` counts the journal reads. */
function setUp() {
  const journal: ChangesTable[] = [];
  const head = { seq: 0, prunedThrough: 0 };
  let reads = 0;
  const listeners = createChangeListeners({ perAccount: 2000, perNode: 2000 });
  const changes = createChangesService({
    changes: {
      head: async () => ({ ...head }),
      after: async (_userId, seq, limit) => {
        reads++;
        await new Promise((resolve) => setImmediate(resolve));
        return journal.filter((row) => row.seq > seq).slice(0, limit);
      },
    },
    listeners,
    keepAliveMs: 50,
  });
  const append = (count: number) => {
    for (let i = 0; i < count; i++) journal.push(entry(++head.seq));
    listeners.wake(['ada']);
  };
  return { changes, append, head, listeners, reads: () => reads };
}

describe('the change feed service', () => {
  it('pages the journal after a cursor and says when more is left', async () => {
    const { changes, append } = setUp();
    append(3);
    const first = await changes.after('ada', encodeCursor('ada', 0), { limit: '2', waitMs: 0 });
    expect(first.changes.map((change) => change.id)).toEqual(['folder-1', 'folder-2']);
    expect(first).toMatchObject({ hasMore: true, cursor: encodeCursor('ada', 2) });
    expect(await changes.after('ada', first.cursor, { waitMs: 0 })).toMatchObject({ hasMore: false, cursor: encodeCursor('ada', 3) });
    expect((await refusal(changes.after('ada', first.cursor, { limit: '1001', waitMs: 0 }))).status).toBe(400);
  });

  it('answers 410 for a cursor before what retention kept or after the journal’s end', async () => {
    const { changes, append, head } = setUp();
    append(5);
    head.prunedThrough = 3;
    expect(await refusal(changes.after('ada', encodeCursor('ada', 2), { waitMs: 0 }))).toMatchObject({
      status: 410,
      code: 'CURSOR_EXPIRED',
    });
    expect((await changes.after('ada', encodeCursor('ada', 3), { waitMs: 0 })).changes).toHaveLength(2);
    expect((await refusal(changes.after('ada', encodeCursor('ada', 6), { waitMs: 0 }))).status).toBe(410);
  });

  it('wakes a thousand waiters at one position with one read of the journal', async () => {
    const { changes, append, listeners, reads } = setUp();
    const cursor = encodeCursor('ada', 0);
    const waiting = Array.from({ length: 1000 }, () => changes.after('ada', cursor, { waitMs: 60_000 }));
    // Every waiter has read the empty journal (one shared read) and waits.
    while (listeners.count() < 1000 || reads() < 1) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = reads();
    expect(before).toBe(1);
    append(1);
    const answers = await Promise.all(waiting);
    expect(answers.every((answer) => answer.changes.length === 1)).toBe(true);
    expect(reads() - before).toBe(1);
    expect(listeners.count()).toBe(0);
  });

  it('streams each page as it comes, and stops when the client leaves', async () => {
    const { changes, append, listeners } = setUp();
    const sent: ChangesResponse[] = [];
    const sink: StreamSink = { send: (page) => sent.push(page) };
    const controller = new AbortController();
    const stream = await changes.openStream('ada', encodeCursor('ada', 0));
    const running = stream.run(sink, controller.signal);
    append(2);
    while (sent.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    append(1);
    while (sent.flatMap((page) => page.changes).length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await running;
    expect(sent.flatMap((page) => page.changes.map((change) => change.id))).toEqual(['folder-1', 'folder-2', 'folder-3']);
    expect(sent.at(-1)!.cursor).toBe(encodeCursor('ada', 3));
    expect(listeners.count()).toBe(0);
  });

  it('keeps idle streams alive with one timer for all of them, until each stops', async () => {
    const { changes } = setUp();
    const written = { a: 0, b: 0 };
    const stopA = changes.keepAlive(() => void written.a++);
    const stopB = changes.keepAlive(() => void written.b++);
    while (written.a < 2 || written.b < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    stopA();
    const aStopped = written.a;
    while (written.b < 4) await new Promise((resolve) => setTimeout(resolve, 10));
    stopB();
    expect(written.a).toBe(aStopped);
  });

  it('refuses a stream from an expired cursor before it starts', async () => {
    const { changes, append, head } = setUp();
    append(2);
    head.prunedThrough = 2;
    expect((await refusal(changes.openStream('ada', encodeCursor('ada', 1)))).status).toBe(410);
  });
});
