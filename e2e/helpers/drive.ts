import { randomBytes } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

/** Files and folders made through the API, for journeys that start with a filled drive. */
export interface ApiFolder {
  id: string;
  name: string;
  parentId: string | null;
}

export interface ApiFile {
  id: string;
  originalName: string;
  folderId: string | null;
  size: number;
}

async function call<T>(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

export async function createFolderViaApi(baseUrl: string, token: string, name: string, parentId: string | null = null): Promise<ApiFolder> {
  return (await call<{ folder: ApiFolder }>(baseUrl, token, 'POST', '/user/folders', { name, parentId })).folder;
}

/** Uploads bytes as a file (multipart, folderId before the file part, as the API wants). */
export async function uploadViaApi(
  baseUrl: string,
  token: string,
  file: { name: string; content: Uint8Array | string; type?: string; folderId?: string | null },
): Promise<ApiFile> {
  const form = new FormData();
  if (file.folderId) form.append('folderId', file.folderId);
  const bytes = (typeof file.content === 'string' ? new TextEncoder().encode(file.content) : file.content) as Uint8Array<ArrayBuffer>;
  form.append('file', new Blob([bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  const response = await fetch(`${baseUrl}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (response.status !== 201) throw new Error(`upload of ${file.name} failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { file: ApiFile }).file;
}

/** Runs `task` for every index with at most `concurrency` at once. */
export async function promisePool(count: number, concurrency: number, task: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

export async function listFilesViaApi(baseUrl: string, token: string, folderId: string | null = null): Promise<ApiFile[]> {
  const query = folderId ? `?folderId=${folderId}` : '';
  return (await call<{ files: ApiFile[] }>(baseUrl, token, 'GET', `/files${query}`)).files;
}

export async function listFoldersViaApi(baseUrl: string, token: string, parentId: string | null = null): Promise<ApiFolder[]> {
  const query = parentId ? `?parentId=${parentId}` : '';
  return (await call<{ folders: ApiFolder[] }>(baseUrl, token, 'GET', `/user/folders${query}`)).folders;
}

export function randomContent(size: number): Buffer {
  return randomBytes(size);
}


/** The bytes of a finished Playwright download. */
export async function downloadedBytes(download: { path(): Promise<string | null> }): Promise<Buffer> {
  const file = await download.path();
  if (!file) throw new Error('The download failed');
  return readFile(file);
}

/** A sparse file of `size` bytes (no disk used): for the too-large upload check. */
export async function sparseFile(file: string, size: number): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.truncate(size);
  } finally {
    await handle.close();
  }
}

/**
 * Drops files on the page as a desktop drag would: a DataTransfer built in the page, with
 * dragenter and dragover first (the overlay shows), then drop. `beforeDrop` runs while the
 * files hover.
 */
export async function dropFiles(
  page: Page,
  files: Array<{ name: string; content: string; type?: string }>,
  beforeDrop?: () => Promise<void>,
): Promise<void> {
  await page.evaluate((list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([file.content], file.name, { type: file.type ?? 'text/plain' }));
    (window as unknown as { __e2eDrop: DataTransfer }).__e2eDrop = transfer;
    const target = document.querySelector('main') ?? document.body;
    for (const type of ['dragenter', 'dragover']) {
      target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }
  }, files);
  if (beforeDrop) await beforeDrop();
  await page.evaluate(() => {
    const transfer = (window as unknown as { __e2eDrop: DataTransfer }).__e2eDrop;
    const target = document.querySelector('main') ?? document.body;
    target.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
  });
}

export { readZip } from '../../apps/server/test/helpers/read-zip.ts';
