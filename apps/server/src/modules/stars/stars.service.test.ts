import { describe, expect, it } from 'vitest';
import { refusal } from '../../lib/refusal.testing.ts';
import type { StarPosition, StarredFileRow, StarredFolderRow } from './stars.repository.ts';
import { createStarsService, decodeStarCursor, encodeStarCursor } from './stars.service.ts';

const at = (minute: number) => `2026-12-06T10:${String(minute).padStart(2, '0')}:00.000Z`;
const file = (id: string, minute: number): StarredFileRow => ({
  id,
  name: `${id}.txt`,
  mimetype: 'text/plain',
  size: 1,
  folder_id: null,
  created_at: at(0),
  updated_at: at(0),
  sha256: 'a'.repeat(64),
  starred_at: at(minute),
});
const folder = (id: string, minute: number): StarredFolderRow => ({
  id,
  user_id: 'me',
  parent_id: null,
  name: id,
  created_at: at(0),
  updated_at: at(0),
  deleted_at: null,
  trashed_root: 0,
  starred_at: at(minute),
});

/** Keyset order of the repository: newest star first, then the item's id, after `after`. */
function page<T extends { id: string; starred_at: string }>(rows: T[], after: StarPosition | null, limit: number | null): T[] {
  const sorted = [...rows].sort((a, b) => b.starred_at.localeCompare(a.starred_at) || b.id.localeCompare(a.id));
  const rest = after ? sorted.filter((row) => row.starred_at < after.at || (row.starred_at === after.at && row.id < after.id)) : sorted;
  return limit === null ? rest : rest.slice(0, limit);
}

function setUp(files: StarredFileRow[], folders: StarredFolderRow[], owned: string[] = []) {
  return createStarsService({
    stars: {
      star: async (_userId, _type, id) => owned.includes(id),
      unstar: async () => false,
      owns: async (_userId, _type, id) => owned.includes(id),
      starredFiles: async (_userId, after, limit) => page(files, after, limit),
      starredFolders: async (_userId, after, limit) => page(folders, after, limit),
    },
    clock: { now: () => new Date(at(30)) },
  });
}

describe('Starred', () => {
  it('pages folders and files together, newest star first, each once', async () => {
    const stars = setUp([file('a', 1), file('b', 3), file('c', 5)], [folder('x', 2), folder('y', 4)]);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const answer = await stars.list('me', { limit: '2', ...(cursor ? { cursor } : {}) });
      pages.push([...answer.folders.map((item) => item.name), ...answer.files.map((item) => item.originalName)].sort());
      cursor = answer.nextCursor ?? undefined;
    } while (cursor && pages.length < 5);
    expect(pages).toEqual([['c.txt', 'y'], ['b.txt', 'x'], ['a.txt']]);
    const all = await stars.list('me', {});
    expect(all).not.toHaveProperty('nextCursor');
    expect([...all.folders, ...all.files].every((item) => item.starred)).toBe(true);
  });

  it("answers 404 for an item that is not the caller's, starring or unstarring", async () => {
    const stars = setUp([], [], ['mine']);
    await stars.star('me', 'file', 'mine');
    await stars.unstar('me', 'folder', 'mine');
    expect((await refusal(stars.star('me', 'file', 'theirs'))).status).toBe(404);
    expect((await refusal(stars.unstar('me', 'folder', 'theirs'))).code).toBe('FOLDER_NOT_FOUND');
  });

  it('refuses a limit out of bounds and a cursor it did not give out', async () => {
    const stars = setUp([], []);
    for (const limit of ['0', '1001', 'ten']) expect((await refusal(stars.list('me', { limit }))).code).toBe('INVALID_LIMIT');
    expect(decodeStarCursor(encodeStarCursor({ at: at(1), id: 'a' }))).toEqual({ at: at(1), id: 'a' });
    for (const cursor of ['e30', 'not-json', Buffer.from('{"starred":[1,2]}').toString('base64url')])
      expect((await refusal(stars.list('me', { cursor }))).code).toBe('INVALID_CURSOR');
  });
});
