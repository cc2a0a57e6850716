import { openAsBlob } from 'node:fs';
import type { ErrorBody } from '@cloudvault/contract/common';
import type { FileItem } from '@cloudvault/contract/files';
import { expect } from 'vitest';
import type { TestServer } from './test-server.ts';

/** The upload's answer: the stored file on 201, the error otherwise. */
export type UploadAnswer = { file: FileItem } & Partial<ErrorBody>;

/** Uploads bytes (or a file on disk, streamed) as multipart, as a browser does. */
export async function uploadFile(
  server: TestServer,
  token: string,
  content: Buffer | string | { path: string },
  options: { name?: string; type?: string; folderId?: string | null } = {},
) {
  const form = new FormData();
  if (options.folderId !== undefined) form.append('folderId', options.folderId ?? 'null');
  const blob =
    typeof content === 'object' && 'path' in content
      ? await openAsBlob(content.path, { type: options.type ?? '' })
      : new Blob([content], { type: options.type ?? '' });
  form.append('file', blob, options.name ?? 'file.bin');
  const response = await fetch(`${server.url}/api/files/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as UploadAnswer, headers: response.headers };
}

/** Downloads a file's bytes through the API. */
export async function downloadFile(server: TestServer, token: string, id: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/files/${id}/download`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The user's storage counter and the sum of their stored files' sizes, versions and Trash included. */
export async function storageTotals(server: TestServer, userId: string): Promise<{ used: number; sum: number }> {
  const db = server.container.database.db;
  const user = await db.selectFrom('users').select('storage_used').where('id', '=', userId).executeTakeFirstOrThrow();
  const files = await db.selectFrom('files').select('size').where('user_id', '=', userId).execute();
  const versions = await db.selectFrom('file_versions').select('size').where('user_id', '=', userId).execute();
  const sum = [...files, ...versions].reduce((total, row) => total + Number(row.size), 0);
  return { used: Number(user.storage_used), sum };
}

/**
 * Fails the test unless the user's storage counter equals the sum of their stored files,
 * versions and Trash included; answers both. Uploads in progress hold a reservation, so
 * call it when none is running.
 */
export async function assertStorageConsistent(server: TestServer, userId: string): Promise<{ used: number; sum: number }> {
  const totals = await storageTotals(server, userId);
  expect(totals.used, `storageUsed of user ${userId} differs from the sum of their stored files`).toBe(totals.sum);
  return totals;
}
