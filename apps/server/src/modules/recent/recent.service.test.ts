import { describe, expect, it } from 'vitest';
import { refusal } from '../../lib/refusal.testing.ts';
import type { RecentFileRow } from './recent.repository.ts';
import { createRecentService } from './recent.service.ts';

const row = (id: string, updatedAt: string, openedAt: string | null = null, folderId: string | null = null): RecentFileRow => ({
  id,
  name: `${id}.txt`,
  mimetype: 'text/plain',
  size: 1,
  folder_id: folderId,
  created_at: updatedAt,
  updated_at: updatedAt,
  sha256: 'a'.repeat(64),
  opened_at: openedAt,
  starred: 0,
});

/** Recent over fakes: the rows each read answers, and the opens written. */
function setUp(files: RecentFileRow[], now = '2026-12-06T10:00:00.000Z') {
  const opens = new Map<string, string>();
  const recent = createRecentService({
    recent: {
      lastOpened: async (fileId) => opens.get(fileId),
      recordOpen: async (_userId, fileId, at) => void opens.set(fileId, at),
      changedLast: async (_userId, limit) => [...files].sort((a, b) => b.updated_at.localeCompare(a.updated_at)).slice(0, limit),
      openedLast: async (_userId, limit) =>
        files
          .filter((file) => file.opened_at !== null)
          .sort((a, b) => b.opened_at!.localeCompare(a.opened_at!))
          .slice(0, limit),
      foldersOf: async (_userId, ids) =>
        ids.map((id) => ({
          id,
          user_id: 'me',
          parent_id: null,
          name: `Folder ${id}`,
          created_at: now,
          updated_at: now,
          deleted_at: null,
          trashed_root: 0,
        })),
    },
    clock: { now: () => new Date(now) },
  });
  return { recent, opens };
}

describe('recent files', () => {
  it('orders by the later of changed and opened, lists each file once and names the folders they are in', async () => {
    const { recent } = setUp([
      row('changed', '2026-12-06T09:00:00.000Z'),
      row('opened', '2026-12-01T00:00:00.000Z', '2026-12-06T09:30:00.000Z', 'f1'),
      row('both', '2026-12-06T08:00:00.000Z', '2026-12-05T00:00:00.000Z'),
      row('old', '2026-11-01T00:00:00.000Z'),
    ]);
    const answer = await recent.list('me', { limit: '3' });
    expect(answer.files.map((file) => file.originalName)).toEqual(['opened.txt', 'changed.txt', 'both.txt']);
    expect(answer.folders).toMatchObject([{ id: 'f1', name: 'Folder f1' }]);
    expect((await recent.list('me', {})).files).toHaveLength(4);
  });

  it('writes an open only when the last one is a minute old or more', async () => {
    const { recent, opens } = setUp([]);
    opens.set('seen', '2026-12-06T09:59:30.000Z');
    opens.set('stale', '2026-12-06T09:58:59.000Z');
    await recent.opened('me', 'seen');
    await recent.opened('me', 'stale');
    await recent.opened('me', 'new');
    expect(Object.fromEntries(opens)).toEqual({
      seen: '2026-12-06T09:59:30.000Z',
      stale: '2026-12-06T10:00:00.000Z',
      new: '2026-12-06T10:00:00.000Z',
    });
  });

  it('refuses a limit outside 1 to 50', async () => {
    const { recent } = setUp([]);
    for (const limit of ['0', '51', '1.5', '']) expect((await refusal(recent.list('me', { limit }))).status).toBe(400);
  });
});
