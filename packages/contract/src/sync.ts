import { Type, type Static } from 'typebox';
import { Id, NullableId, Timestamp } from './common.ts';
import { FileItem } from './files.ts';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './validation.ts';

/** The routes a sync client (apps/sync, `cloudvault`) uses beside the ordinary ones (docs/api.md#sync). */

/** A device's name as the client sends it: the sessions list shows it. */
export const DEVICE_NAME_MAX_LENGTH = 100;

/**
 * POST /api/auth/device-session: the account's e-mail and one of its APP passwords (never
 * the account password) for a bearer session tied to that app password. Answers AuthResponse.
 */
export const DeviceSessionBody = Type.Object(
  {
    email: Type.String({ maxLength: EMAIL_MAX_LENGTH }),
    password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
    /** The computer's name (`--device`, else its host name). */
    device: Type.String({ minLength: 1, maxLength: DEVICE_NAME_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
export type DeviceSessionBody = Static<typeof DeviceSessionBody>;

/** GET /api/sync/tree's query: absent folderId = the caller's own root. */
export const SyncTreeQuery = Type.Object({ folderId: Type.Optional(Id) });
export type SyncTreeQuery = Static<typeof SyncTreeQuery>;

/** The tree's media type: one JSON value a line. */
export const SYNC_TREE_TYPE = 'application/x-ndjson';

/** The tree's first line: the change feed's position taken before the read. */
export const SyncTreeStart = Type.Object({ cursor: Type.String() });
export type SyncTreeStart = Static<typeof SyncTreeStart>;

/** A live folder of the tree; parentId null = directly under the caller's root. */
export const SyncTreeFolder = Type.Object({
  kind: Type.Literal('folder'),
  id: Id,
  parentId: NullableId,
  name: Type.String(),
  updatedAt: Timestamp,
});
export type SyncTreeFolder = Static<typeof SyncTreeFolder>;

/** A live file of the tree; contentHash is the lowercase hex SHA-256 of its bytes. */
export const SyncTreeFile = Type.Object({
  kind: Type.Literal('file'),
  id: Id,
  parentId: NullableId,
  name: Type.String(),
  size: Type.Number(),
  contentHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  updatedAt: Timestamp,
});
export type SyncTreeFile = Static<typeof SyncTreeFile>;

/** The tree's last line: a stream without it was cut. */
export const SyncTreeEnd = Type.Object({ end: Type.Literal(true), count: Type.Number() });
export type SyncTreeEnd = Static<typeof SyncTreeEnd>;

export type SyncTreeLine = SyncTreeStart | SyncTreeFolder | SyncTreeFile | SyncTreeEnd;

/** POST /api/sync/uploads: at most this many files in one request. */
export const SYNC_UPLOAD_MAX_FILES = 1000;
/** POST /api/sync/uploads: at most this many bytes of body (413 beyond); bigger files go through tus. */
export const SYNC_UPLOAD_MAX_BYTES = 64 * 1024 * 1024;

/** The `meta` field before each `file` part of POST /api/sync/uploads (JSON text). */
export const SyncUploadMeta = Type.Object(
  {
    folderId: NullableId,
    name: Type.String({ maxLength: 1000 }),
    /** What to do when the name is taken: replace (a new version), keep-both (a free name), fail (409, the default). */
    conflict: Type.Optional(Type.Union([Type.Literal('replace'), Type.Literal('keep-both'), Type.Literal('fail')])),
    /** The SHA-256 the client read; a different one stored is refused (400 HASH_MISMATCH) and nothing is kept. */
    contentHash: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  },
  { additionalProperties: false },
);
export type SyncUploadMeta = Static<typeof SyncUploadMeta>;

/** One file's refusal in a batch: the others go on. */
export const SyncItemError = Type.Object({ error: Type.String(), code: Type.String(), status: Type.Number() });
export type SyncItemError = Static<typeof SyncItemError>;

export const SyncUploadResult = Type.Union([Type.Object({ file: FileItem }), SyncItemError]);
export type SyncUploadResult = Static<typeof SyncUploadResult>;

/** One result per file, in the order sent. */
export const SyncUploadsResponse = Type.Object({ results: Type.Array(SyncUploadResult) });
export type SyncUploadsResponse = Static<typeof SyncUploadsResponse>;

/** POST /api/sync/downloads: at most this many ids in one request. */
export const SYNC_DOWNLOAD_MAX_FILES = 1000;

export const SyncDownloadsBody = Type.Object(
  { ids: Type.Array(Id, { minItems: 1, maxItems: SYNC_DOWNLOAD_MAX_FILES }) },
  { additionalProperties: false },
);
export type SyncDownloadsBody = Static<typeof SyncDownloadsBody>;

/** The downloads' media type: a JSON header line per file, then its raw bytes. */
export const SYNC_DOWNLOADS_TYPE = 'application/x-cloudvault-files';

/** A file's header line; exactly `size` raw bytes follow it. */
export interface SyncDownloadHeader {
  id: string;
  size: number;
  contentHash: string;
}
/** A file that cannot be sent (no bytes follow). */
export interface SyncDownloadError {
  id: string;
  error: string;
  code: string;
}
/** The last line: a stream without it was cut. */
export interface SyncDownloadEnd {
  end: true;
}
