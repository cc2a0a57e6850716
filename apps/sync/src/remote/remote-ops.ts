/**
 * The tree changes a pass makes on the server: folders made, items moved, renamed and deleted
 * (to Trash), files copied inside the server for content it already holds. Each is safe to
 * repeat after a crash: a folder already there is found, a deletion already done is done.
 */
import type { EntryKind } from '../model.ts';
import type { ApiClient } from './api-client.ts';
import { isRemoteError, RemoteError } from './remote-error.ts';
import { nameKey } from '@cloudvault/contract/validation';

/** A file as the server answers it (upload, copy, move), as far as the client reads it. */
export interface RemoteFile {
  id: string;
  originalName: string;
  folderId: string | null;
  size: number;
  contentHash?: string;
}

/** A folder as the server answers it. */
export interface RemoteFolder {
  id: string;
  name: string;
  parentId: string | null;
}

/**
 * Makes folder `name` in `parentId` (null: the caller's root) and answers its id. A name
 * already taken by a folder (409 NAME_TAKEN, e.g. made by the pass a crash cut short) answers
 * that folder's id; taken by a file, the RemoteError.
 */
export async function makeFolder(api: ApiClient, parentId: string | null, name: string): Promise<string> {
  try {
    const { folder } = await api.json<{ folder: RemoteFolder }>({ method: 'POST', path: '/api/user/folders', json: { name, parentId } });
    return folder.id;
  } catch (error) {
    if (!isRemoteError(error, 'NAME_TAKEN')) throw error;
    const existing = await findFolder(api, parentId, name);
    if (existing === undefined) throw error;
    return existing.id;
  }
}

/** The folder named `name` (compared as the server compares names) in `parentId`, if there is one. */
export async function findFolder(api: ApiClient, parentId: string | null, name: string): Promise<RemoteFolder | undefined> {
  const { folders } = await api.json<{ folders: RemoteFolder[] }>({ path: '/api/user/folders', query: { parentId: parentId ?? '' } });
  return folders.find((folder) => nameKey(folder.name) === nameKey(name));
}

/** Where a move takes an item: a new name, a new parent (null: the root), or both. */
export interface MoveTarget {
  name?: string;
  parentId?: string | null;
}

/**
 * Renames and/or moves a file or folder. A name taken at the destination is not replaced
 * (`conflict: 'fail'`): the RemoteError 409 NAME_TAKEN (with `details.existingId`) comes back,
 * so the planner decides on the next pass.
 */
export async function moveItem(api: ApiClient, kind: EntryKind, id: string, target: MoveTarget): Promise<void> {
  const json =
    kind === 'file'
      ? { name: target.name, folderId: target.parentId, conflict: 'fail' }
      : { name: target.name, parentId: target.parentId, conflict: 'fail' };
  const path = kind === 'file' ? `/api/files/${encodeURIComponent(id)}` : `/api/user/folders/${encodeURIComponent(id)}`;
  await api.request({ method: 'PATCH', path, json, idempotent: true });
}

/** Sends a file or folder (with all under it) to the server's Trash. Already gone (404) counts as done. */
export async function deleteItem(api: ApiClient, kind: EntryKind, id: string): Promise<void> {
  const path = kind === 'file' ? `/api/files/${encodeURIComponent(id)}` : `/api/user/folders/${encodeURIComponent(id)}`;
  await api.request({ method: 'DELETE', path, accept: [404] });
}

/**
 * Copies file `id` inside the server into `folderId` (null: the root) under `name`: content the
 * server already holds is never sent again. A taken name is numbered by the server (`name (1).ext`);
 * the answer says which name it got.
 */
export async function copyFile(api: ApiClient, id: string, folderId: string | null, name: string): Promise<RemoteFile> {
  const { file } = await api.json<{ file: RemoteFile }>({
    method: 'POST',
    path: `/api/files/${encodeURIComponent(id)}/copy`,
    json: { folderId, name },
  });
  if (file.originalName !== name) {
    // Someone took the name in between: keep their file and ours, but say the copy landed elsewhere.
    throw new RemoteError(409, 'NAME_TAKEN', `"${name}" was taken on the server; the copy was kept as "${file.originalName}"`, { file });
  }
  return file;
}
