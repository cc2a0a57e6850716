import type { NameConflict } from '@cloudvault/contract/files';
import { DEVICE_CACHES } from '../../lib/device-caches';

/**
 * Files chosen for upload while offline, kept on the device until they are sent
 * (docs/decisions/0066-offline-and-sharing-in.md): an app closed or reloaded before the
 * network returned queues them again when it opens. Each is a Response made from the File
 * in Cache Storage, so the bytes stay on disk. They are the signed-in account's: the page
 * deletes them with the rest of its data when the session ends.
 */
const ADDRESS = '/waiting-uploads/';
const HEADERS = { name: 'X-Upload-Name', folder: 'X-Upload-Folder', conflict: 'X-Upload-Conflict', modified: 'X-Upload-Modified' };

/** Each kept file's address, by the File the queue holds; and every address this page knows. */
const addresses = new WeakMap<File, string>();
const known = new Set<string>();

export interface WaitingUpload {
  file: File;
  folderId: string | null;
  conflict?: NameConflict;
}

/** Keeps `file` on the device until forgetWaiting(file); once per file. Without Cache Storage (plain HTTP) nothing is kept. */
export async function keepWaiting({ file, folderId, conflict }: WaitingUpload): Promise<void> {
  if (addresses.has(file) || typeof caches === 'undefined') return;
  const address = `${ADDRESS}${crypto.randomUUID()}`;
  addresses.set(file, address);
  known.add(address);
  const cache = await caches.open(DEVICE_CACHES.waitingUploads);
  await cache.put(
    address,
    new Response(file, {
      headers: {
        'Content-Type': file.type || 'application/octet-stream',
        // A header carries Latin-1 only: the name is percent-encoded.
        [HEADERS.name]: encodeURIComponent(file.name),
        [HEADERS.folder]: folderId ?? '',
        [HEADERS.conflict]: conflict ?? '',
        [HEADERS.modified]: String(file.lastModified),
      },
    }),
  );
}

/** The file started to travel, or was cancelled: its copy goes. */
export async function forgetWaiting(file: File): Promise<void> {
  const address = addresses.get(file);
  if (!address) return;
  addresses.delete(file);
  await (await caches.open(DEVICE_CACHES.waitingUploads)).delete(address);
}

/** Whether `file` is one kept on the device (chosen offline here, or found by waitingUploads). */
export function isWaiting(file: File): boolean {
  return addresses.has(file);
}

/** The files an earlier page kept and never sent, not yet known to this page. */
export async function waitingUploads(): Promise<WaitingUpload[]> {
  if (typeof caches === 'undefined') return [];
  const cache = await caches.open(DEVICE_CACHES.waitingUploads);
  const found: WaitingUpload[] = [];
  for (const request of await cache.keys()) {
    const address = new URL(request.url).pathname;
    if (known.has(address)) continue;
    const response = await cache.match(request);
    if (!response) continue;
    const header = (name: string) => response.headers.get(name) ?? '';
    const file = new File([await response.blob()], decodeURIComponent(header(HEADERS.name)), {
      type: header('Content-Type'),
      lastModified: Number(header(HEADERS.modified)) || Date.now(),
    });
    known.add(address);
    addresses.set(file, address);
    const conflict = header(HEADERS.conflict);
    found.push({ file, folderId: header(HEADERS.folder) || null, ...(conflict ? { conflict: conflict as NameConflict } : {}) });
  }
  return found;
}
