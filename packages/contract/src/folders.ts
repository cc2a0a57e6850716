import { Type, type Static } from 'typebox';
import { Id, NullableId, Timestamp } from './common.ts';
import { ITEM_NAME_MAX_LENGTH } from './validation.ts';
import { ListingPageFields, NextCursor } from './listing.ts';

export const Folder = Type.Object({
  id: Id,
  name: Type.String(),
  parentId: NullableId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** (++) `true` when the caller starred it (listings, Starred); absent when not (docs/api.md#starred). */
  starred: Type.Optional(Type.Boolean()),
});
export type Folder = Static<typeof Folder>;

/** A display name; trimmed, stripped of separators and control characters by the server. */
const ItemName = Type.String({ maxLength: ITEM_NAME_MAX_LENGTH * 4 });
/** `null` (or absent) is the root. */
const ParentId = Type.Union([Id, Type.Null()]);

export const FolderIdParams = Type.Object({ id: Id });
export type FolderIdParams = Static<typeof FolderIdParams>;

export const ListFoldersQuery = Type.Object({
  /** Absent, empty or the string `null` is the root. */
  parentId: Type.Optional(Type.Union([Id, Type.Literal('null'), Type.Literal('')])),
  timestamp: Type.Optional(Type.String({ maxLength: 32 })),
  ...ListingPageFields,
});
export type ListFoldersQuery = Static<typeof ListFoldersQuery>;

export const CreateFolderBody = Type.Object({ name: ItemName, parentId: Type.Optional(ParentId) });
export type CreateFolderBody = Static<typeof CreateFolderBody>;

/** (++) A folder moved onto a taken name: `keep-both` takes "name (1)", `fail` (as sent nothing) answers 409; folders are never replaced. */
export const FolderNameConflict = Type.Union([Type.Literal('keep-both'), Type.Literal('fail')]);
export type FolderNameConflict = Static<typeof FolderNameConflict>;

export const UpdateFolderBody = Type.Object(
  { name: Type.Optional(ItemName), parentId: Type.Optional(ParentId), conflict: Type.Optional(FolderNameConflict) },
  { minProperties: 1 },
);
export type UpdateFolderBody = Static<typeof UpdateFolderBody>;

export const FolderResponse = Type.Object({ folder: Folder });
export const FoldersResponse = Type.Object({ folders: Type.Array(Folder), nextCursor: NextCursor });
export type FoldersResponse = Static<typeof FoldersResponse>;
export const FolderPathResponse = Type.Object({ path: Type.Array(Folder) });
