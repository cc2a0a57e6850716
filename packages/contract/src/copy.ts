import { Type, type Static } from 'typebox';
import { Id } from './common.ts';
import { ITEM_NAME_MAX_LENGTH } from './validation.ts';

/** The copy's name; the original's when absent. A taken name becomes "name (1).ext", "name (2).ext"… */
const CopyName = Type.Optional(Type.String({ maxLength: ITEM_NAME_MAX_LENGTH * 4 }));
/** A folder of the caller's own drive; `null` is the root. */
const Destination = Type.Union([Id, Type.Null()]);

/** POST /api/files/:id/copy: a new file with the same bytes in `folderId`, from any file the caller may read (their own or one shared with them); answered as FileResponse. */
export const CopyFileBody = Type.Object({ folderId: Destination, name: CopyName });
export type CopyFileBody = Static<typeof CopyFileBody>;

/** POST /api/user/folders/:id/copy: the folder (their own or one in a folder shared with them) and everything under it into `parentId`; answered as FolderResponse. */
export const CopyFolderBody = Type.Object({ parentId: Destination, name: CopyName });
export type CopyFolderBody = Static<typeof CopyFolderBody>;
