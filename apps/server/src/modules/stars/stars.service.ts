import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { LISTING_PAGE_MAX } from '@cloudvault/contract/sort-keys';
import type { StarredItemType, StarredResponse } from '@cloudvault/contract/starred';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { presentFile } from '../files/files.presenter.ts';
import { presentFolder } from '../folders/folders.presenter.ts';
import type { StarPosition, StarsRepository } from './stars.repository.ts';

export interface StarsServiceDeps {
  stars: Pick<StarsRepository, 'star' | 'unstar' | 'owns' | 'starredFiles' | 'starredFolders'>;
  clock: Clock;
}

const itemNotFound = (type: StarredItemType) =>
  type === 'file' ? notFound('File not found', 'FILE_NOT_FOUND') : notFound('Folder not found', 'FOLDER_NOT_FOUND');

const invalidCursor = () =>
  badRequest('The cursor is not one Starred gave out: start again from the first page without a cursor', 'INVALID_CURSOR');

/** The page size a query asks for: 1 to LISTING_PAGE_MAX, or null (every starred item). */
export function starredLimit(limit: string | undefined): number | null {
  if (limit === undefined) return null;
  const value = /^\d{1,4}$/.test(limit) ? Number(limit) : Number.NaN;
  if (!(value >= 1 && value <= LISTING_PAGE_MAX))
    throw badRequest(`limit must be a whole number from 1 to ${LISTING_PAGE_MAX}`, 'INVALID_LIMIT');
  return value;
}

/** The cursor of the page after `position`: opaque to clients (base64url of a small JSON). */
export const encodeStarCursor = (position: StarPosition): string =>
  Buffer.from(JSON.stringify({ starred: [position.at, position.id] })).toString('base64url');

export function decodeStarCursor(cursor: string): StarPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const position = (decoded as { starred?: unknown } | null)?.starred;
  if (!Array.isArray(position) || position.length !== 2 || !position.every((value) => typeof value === 'string' && value.length <= 64))
    throw invalidCursor();
  return { at: position[0] as string, id: position[1] as string };
}

/**
 * Stars: a user marks their own files and folders to find them again in Starred
 * (docs/api.md#starred). Starring and unstarring are idempotent; another user's item, or
 * one that does not exist, is a 404. A star stays while its item is in Trash (hidden from
 * Starred, back on restore) and goes with it when it is deleted for good
 * (docs/decisions/0052-starred-and-recent.md).
 */
export function createStarsService({ stars, clock }: StarsServiceDeps) {
  return {
    async star(userId: string, type: StarredItemType, id: string): Promise<void> {
      if (!(await stars.star(userId, type, id, clock.now().toISOString()))) throw itemNotFound(type);
    },

    /** Unstarring an item that has no star is done already; an item that is not theirs is a 404. */
    async unstar(userId: string, type: StarredItemType, id: string): Promise<void> {
      if (await stars.unstar(userId, type, id)) return;
      if (!(await stars.owns(userId, type, id))) throw itemNotFound(type);
    },

    /**
     * The starred items not in Trash, newest star first: one page of `limit` folders and
     * files together after the cursor's star, and the cursor of the next (null after the
     * last); without a limit, all of them.
     */
    async list(userId: string, query: { limit?: string; cursor?: string }): Promise<StarredResponse> {
      const limit = starredLimit(query.limit);
      const after = query.cursor === undefined ? null : decodeStarCursor(query.cursor);
      // One past the page from each kind tells whether another page follows.
      const take = limit === null ? null : limit + 1;
      const [files, folders] = await Promise.all([stars.starredFiles(userId, after, take), stars.starredFolders(userId, after, take)]);
      const merged = [
        ...files.map((row) => ({ at: row.starred_at, id: row.id, file: row })),
        ...folders.map((row) => ({ at: row.starred_at, id: row.id, folder: row })),
      ].sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1));
      const shown = limit === null ? merged : merged.slice(0, limit);
      const answer: { folders: Folder[]; files: FileItem[] } = { folders: [], files: [] };
      for (const item of shown) {
        if ('file' in item && item.file) answer.files.push({ ...presentFile(item.file), starred: true });
        else if ('folder' in item && item.folder) answer.folders.push({ ...presentFolder(item.folder), starred: true });
      }
      const last = shown.at(-1);
      if (limit === null) return answer;
      return { ...answer, nextCursor: merged.length > limit && last ? encodeStarCursor(last) : null };
    },
  };
}

export type StarsService = ReturnType<typeof createStarsService>;
