// @vitest-environment jsdom
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Change } from '@cloudvault/contract/changes';
import { driveKeys, notificationKeys, sessionKey } from '../../lib/query-keys';
import { BATCH_MS, createChangeApplier, NOTIFICATION_RECHECK_MS } from './change-applier';

const created = (id: string, parentId: string | null, extra: Partial<Change> = {}): Change => ({
  op: 'created',
  kind: 'file',
  id,
  parentId,
  name: `${id}.txt`,
  at: '2026-12-06T10:00:00.000Z',
  size: 1,
  contentHash: id,
  ...extra,
});

let client: QueryClient;
let invalidated: QueryKey[];
beforeEach(() => {
  vi.useFakeTimers();
  client = new QueryClient();
  client.setQueryData(driveKeys.files('d1'), []);
  invalidated = [];
  const invalidate = client.invalidateQueries.bind(client);
  vi.spyOn(client, 'invalidateQueries').mockImplementation((filters, options) => {
    invalidated.push(filters?.queryKey ?? ['(predicate)']);
    return invalidate(filters, options);
  });
});
afterEach(() => vi.useRealTimers());

describe('applying changes to the cache', () => {
  it('gathers the pages of a burst (a copy of a thousand files) into one invalidation per answer', async () => {
    const applier = createChangeApplier(client);
    for (let page = 0; page < 4; page++) applier.add(Array.from({ length: 250 }, (_, index) => created(`f${page}-${index}`, 'd1')));
    expect(invalidated).toEqual([]);
    await vi.advanceTimersByTimeAsync(BATCH_MS);
    const listed = invalidated.map((key) => JSON.stringify(key));
    expect(listed.filter((key) => key === JSON.stringify(driveKeys.files('d1')))).toHaveLength(1);
    expect(listed.filter((key) => key === JSON.stringify(driveKeys.storage))).toHaveLength(1);
    expect(new Set(listed).size).toBe(listed.length);

    // The next burst is a batch of its own.
    invalidated = [];
    applier.add([created('g1', 'd1')]);
    await vi.advanceTimersByTimeAsync(BATCH_MS);
    expect(invalidated.map((key) => JSON.stringify(key))).toContain(JSON.stringify(driveKeys.files('d1')));
    applier.dispose();
  });

  it('asks the bell again a little after a new share, when the notification is sure to be written', async () => {
    const applier = createChangeApplier(client);
    applier.add([{ ...created('team', null, { shareId: 's1' }), kind: 'folder' }]);
    await vi.advanceTimersByTimeAsync(BATCH_MS);
    expect(invalidated).toContainEqual(notificationKeys.all);
    invalidated = [];
    await vi.advanceTimersByTimeAsync(NOTIFICATION_RECHECK_MS);
    expect(invalidated).toEqual([notificationKeys.all]);
    applier.dispose();
  });

  it('after a reset invalidates every answer but the session, once, and drops the batch it was gathering', async () => {
    client.setQueryData(sessionKey, { id: 'u1' });
    const applier = createChangeApplier(client);
    applier.add([created('f1', 'd1')]);
    applier.invalidateEverything();
    await vi.advanceTimersByTimeAsync(BATCH_MS * 2);
    expect(invalidated).toEqual([['(predicate)']]);
    expect(client.getQueryState(sessionKey)?.isInvalidated).toBe(false);
    expect(client.getQueryState(driveKeys.files('d1'))?.isInvalidated).toBe(true);
    applier.dispose();
  });

  it('does nothing once disposed (signed out)', async () => {
    const applier = createChangeApplier(client);
    applier.add([created('f1', 'd1')]);
    applier.dispose();
    await vi.advanceTimersByTimeAsync(BATCH_MS * 2);
    expect(invalidated).toEqual([]);
  });
});
