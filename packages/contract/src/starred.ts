import { Type, type Static } from 'typebox';
import { Id } from './common.ts';
import { FileItem } from './files.ts';
import { Folder } from './folders.ts';
import { NextCursor } from './listing.ts';

/** What a star marks: one of the caller's files or folders. */
export const StarredItemType = Type.Union([Type.Literal('file'), Type.Literal('folder')]);
export type StarredItemType = Static<typeof StarredItemType>;

/** PUT and DELETE /api/starred/:type/:id. */
export const StarParams = Type.Object({ type: StarredItemType, id: Id });
export type StarParams = Static<typeof StarParams>;

/** GET /api/starred: newest star first; without `limit`, every starred item. */
export const ListStarredQuery = Type.Object({
  /** Items per page (folders and files together), 1 to LISTING_PAGE_MAX. */
  limit: Type.Optional(Type.String({ maxLength: 8 })),
  /** A page's `nextCursor`, to get the page after it. */
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, pattern: '^[A-Za-z0-9_-]+$' })),
});
export type ListStarredQuery = Static<typeof ListStarredQuery>;

/** The caller's starred items not in Trash, each kind newest star first, shaped as the listings shape them. */
export const StarredResponse = Type.Object({ folders: Type.Array(Folder), files: Type.Array(FileItem), nextCursor: NextCursor });
export type StarredResponse = Static<typeof StarredResponse>;
