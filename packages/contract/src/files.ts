import { Type, type Static } from 'typebox';
import { Id, NullableId, Timestamp } from './common.ts';
import { PlanId } from './plans.ts';
import { FilePreview } from './thumbnails.ts';
import { ITEM_NAME_MAX_LENGTH } from './validation.ts';
import { ListingPageFields, NextCursor } from './listing.ts';

export const FileItem = Type.Object({
  id: Id,
  originalName: Type.String(),
  mimetype: Type.String(),
  size: Type.Number(),
  sizeFormatted: Type.String(),
  folderId: NullableId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** (++) What the web can show of it; thumbnails exist only for image, pdf and video. */
  preview: FilePreview,
  /**
   * (++) Changes whenever the file's bytes change (a new or restored version): append it to
   * thumbnail URLs (`?v=`) so a cached thumbnail never outlives the content it shows.
   */
  contentTag: Type.String(),
  /**
   * (+++) The lowercase hex SHA-256 of the file's bytes (shared/spec/api.md, "Change feed"):
   * a client that already holds content of this hash need not download it again.
   */
  contentHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /** (++) `true` when the caller starred it (listings, search, Starred, Recent); absent when not (docs/api.md#starred). */
  starred: Type.Optional(Type.Boolean()),
});
export type FileItem = Static<typeof FileItem>;

export const FileIdParams = Type.Object({ id: Id });
export type FileIdParams = Static<typeof FileIdParams>;

export const ListFilesQuery = Type.Object({
  folderId: Type.Optional(Type.Union([Id, Type.Literal('null'), Type.Literal('')])),
  /** Case-insensitive substring of the name across every folder; folderId is then ignored. */
  search: Type.Optional(Type.String({ maxLength: ITEM_NAME_MAX_LENGTH })),
  timestamp: Type.Optional(Type.String({ maxLength: 32 })),
  /** Sorting and paging of a folder's files (not of a search). */
  ...ListingPageFields,
});
export type ListFilesQuery = Static<typeof ListFilesQuery>;

/**
 * (++) What an upload or a move does when the folder already holds a file of that name
 * (docs/api.md#name-clashes): `replace` gives that file the new content (its old content
 * kept as a version, or in Trash on plans without versions), `keep-both` takes the next
 * free "name (1).ext", `fail` answers 409 NAME_TAKEN with the existing file's id. Sent
 * nothing, an upload keeps its plan's default and a move answers 409.
 */
export const NameConflict = Type.Union([Type.Literal('replace'), Type.Literal('keep-both'), Type.Literal('fail')]);
export type NameConflict = Static<typeof NameConflict>;

export const UpdateFileBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: ITEM_NAME_MAX_LENGTH * 4 })),
    folderId: Type.Optional(Type.Union([Id, Type.Null()])),
    /** (++) When the target folder holds the name: `replace` puts that file in Trash; see NameConflict. */
    conflict: Type.Optional(NameConflict),
  },
  { minProperties: 1 },
);
export type UpdateFileBody = Static<typeof UpdateFileBody>;

export const FileResponse = Type.Object({ file: FileItem });
export const FilesResponse = Type.Object({ files: Type.Array(FileItem), nextCursor: NextCursor });

export const UploadConfig = Type.Object({
  /** Bytes; null when the plan has no per-file limit. */
  userMaxFileSize: Type.Union([Type.Number(), Type.Null()]),
  userMaxFileSizeFormatted: Type.String(),
  userPlan: PlanId,
});
export type UploadConfig = Static<typeof UploadConfig>;

export const StorageInfo = Type.Object({
  storageUsed: Type.Number(),
  storageLimit: Type.Number(),
  storageUsedFormatted: Type.String(),
  storageLimitFormatted: Type.String(),
  plan: PlanId,
});
export type StorageInfo = Static<typeof StorageInfo>;
export const DashboardResponse = Type.Object({ storageInfo: StorageInfo });
export type DashboardResponse = Static<typeof DashboardResponse>;

/** (+) A signed URL, valid for minutes, that the browser can download natively. */
export const DownloadLinkResponse = Type.Object({ url: Type.String(), expiresAt: Timestamp });
export type DownloadLinkResponse = Static<typeof DownloadLinkResponse>;
