import { Type, type Static } from 'typebox';
import { Id, Timestamp } from './common.ts';
import { FileItem } from './files.ts';
import { Folder } from './folders.ts';

const TrashFields = Type.Object({
  deletedAt: Timestamp,
  purgeAt: Type.Union([Timestamp, Type.Null()]),
  /** (+++) The editor of a shared folder who deleted the owner's item; absent when the owner did. */
  deletedBy: Type.Optional(Type.Object({ firstName: Type.String(), lastName: Type.Optional(Type.String()) })),
});

export const TrashResponse = Type.Object({
  folders: Type.Array(Type.Intersect([Folder, TrashFields])),
  files: Type.Array(Type.Intersect([FileItem, TrashFields])),
});
export type TrashResponse = Static<typeof TrashResponse>;

export const RestoreBody = Type.Object({
  type: Type.Union([Type.Literal('file'), Type.Literal('folder')]),
  id: Id,
});
export type RestoreBody = Static<typeof RestoreBody>;

export const RestoreResponse = Type.Object({ file: Type.Optional(FileItem), folder: Type.Optional(Folder) });
