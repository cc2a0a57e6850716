import { Type, type Static } from 'typebox';
import { FileItem } from './files.ts';
import { Folder } from './folders.ts';

/** The most files GET /api/recent answers with, and how many without `limit`. */
export const RECENT_MAX = 50;
export const RECENT_DEFAULT = 30;

export const RecentQuery = Type.Object({
  /** 1 to RECENT_MAX; default RECENT_DEFAULT. */
  limit: Type.Optional(Type.String({ maxLength: 4, pattern: '^[0-9]+$' })),
});
export type RecentQuery = Static<typeof RecentQuery>;

/**
 * GET /api/recent: the caller's files opened, uploaded or changed lately, newest first,
 * each once, none in Trash (docs/decisions/0052-starred-and-recent.md); `folders` are the folders
 * those files are in (not the root), so a client can name where each one is.
 */
export const RecentResponse = Type.Object({ files: Type.Array(FileItem), folders: Type.Array(Folder) });
export type RecentResponse = Static<typeof RecentResponse>;
