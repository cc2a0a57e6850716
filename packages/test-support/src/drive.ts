import { openAsBlob } from 'node:fs';
import type { ErrorBody } from '@cloudvault/contract/common';
import type { FileItem, FileResponse, FilesResponse } from '@cloudvault/contract/files';
import type { Folder, FolderResponse, FoldersResponse } from '@cloudvault/contract/folders';
import type { Static } from 'typebox';
import { callApi, type RunningServer } from './running-server.ts';

/** Creates a folder through the API (at the top level unless a parent is given) and returns it. */
export async function createFolder(server: RunningServer, token: string, name: string, parentId: string | null = null): Promise<Folder> {
  return (await callApi<Static<typeof FolderResponse>>(server, token, 'POST', '/user/folders', { name, parentId })).folder;
}

/** The upload's answer: the stored file on 201, the error otherwise. */
export type UploadAnswer = Static<typeof FileResponse> & Partial<ErrorBody>;

/** What an upload sends: bytes, or a file on disk (streamed). */
export type UploadContent = Uint8Array | string | { path: string };

export interface UploadOptions {
  /** The file's name; `file.bin` unless given. */
  name?: string;
  /** The declared type; none unless given (the browser's FormData then sends application/octet-stream). */
  type?: string;
  /** The folder to store it in; null sends the field as `null`, undefined leaves it out (the top level). */
  folderId?: string | null;
}

/** Uploads as multipart, as a browser does, and answers whatever the server said. */
export async function uploadFile(server: RunningServer, token: string, content: UploadContent, options: UploadOptions = {}) {
  const form = new FormData();
  // The API wants folderId before the file part.
  if (options.folderId !== undefined) form.append('folderId', options.folderId ?? 'null');
  const blob =
    typeof content === 'object' && 'path' in content
      ? await openAsBlob(content.path, { type: options.type ?? '' })
      : new Blob([content as Uint8Array<ArrayBuffer> | string], { type: options.type ?? '' });
  form.append('file', blob, options.name ?? 'file.bin');
  const response = await fetch(`${server.url}/api/files/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as UploadAnswer, headers: response.headers };
}

/** A stored file, for tests that start with a filled drive: uploads it and fails unless it was stored. */
export async function createFile(
  server: RunningServer,
  token: string,
  content: UploadContent,
  options: UploadOptions = {},
): Promise<FileItem> {
  const answer = await uploadFile(server, token, content, options);
  if (answer.status !== 201)
    throw new Error(`upload of ${options.name ?? 'file.bin'} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.file;
}

/** Downloads a file's bytes through the API. */
export async function downloadFile(server: RunningServer, token: string, id: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/files/${id}/download`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The live files of a folder (the top level unless one is given). */
export async function listFiles(server: RunningServer, token: string, folderId: string | null = null): Promise<FileItem[]> {
  const query = folderId ? `?folderId=${folderId}` : '';
  return (await callApi<Static<typeof FilesResponse>>(server, token, 'GET', `/files${query}`)).files;
}

/** The live subfolders of a folder (the top level unless one is given). */
export async function listFolders(server: RunningServer, token: string, parentId: string | null = null): Promise<Folder[]> {
  const query = parentId ? `?parentId=${parentId}` : '';
  return (await callApi<Static<typeof FoldersResponse>>(server, token, 'GET', `/user/folders${query}`)).folders;
}
