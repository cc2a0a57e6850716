import { Type, type Static } from 'typebox';
import { Id, Timestamp } from './common.ts';
import { FileItem } from './files.ts';

/** An earlier version of a file (plans with versioning). */
export const FileVersion = Type.Object({
  id: Id,
  size: Type.Integer(),
  sizeFormatted: Type.String(),
  sha256: Type.String(),
  mimetype: Type.String(),
  /** When these bytes were uploaded. */
  createdAt: Timestamp,
  /** When newer bytes replaced them. */
  replacedAt: Timestamp,
});
export type FileVersion = Static<typeof FileVersion>;

export const VersionsResponse = Type.Object({ versions: Type.Array(FileVersion) });
export type VersionsResponse = Static<typeof VersionsResponse>;

export const VersionParams = Type.Object({ id: Id, versionId: Id });
export type VersionParams = Static<typeof VersionParams>;

/** After a restore: the file with the restored bytes. */
export const RestoredVersionResponse = Type.Object({ file: FileItem });
export type RestoredVersionResponse = Static<typeof RestoredVersionResponse>;
