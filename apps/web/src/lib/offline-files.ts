import type { DownloadLinkResponse } from '@cloudvault/contract/files';
import { api, getToken } from './api-client';
import { DEVICE_CACHES } from './device-caches';
import pdfWorkerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { OFFLINE_CONTENT_TAG_HEADER, offlineFileAddress } from './offline-file-address';

/**
 * The files the user marked "available offline", seen from the page
 * (docs/decisions/0066-offline-and-sharing-in.md): each file's bytes stored in Cache Storage
 * at its stable address with the content tag they hold, which the service worker answers
 * (src/service-worker/offline-files.ts). The page keeps which files are stored and which are
 * being saved, for the markers and the menus.
 */

/** A file as keeping it needs: a listing's FileItem fits. */
export interface KeepableFile {
  id: string;
  contentTag: string;
  mimetype: string;
}

/** What the page knows: stored copies (file id → content tag held) and the saves under way (file id → share done, 0 to 1). */
export interface OfflineCopies {
  stored: ReadonlyMap<string, string>;
  saving: ReadonlyMap<string, number>;
}

let copies: OfflineCopies = { stored: new Map(), saving: new Map() };
const listeners = new Set<() => void>();
/** The account whose copies `copies` lists: a new session starts with none (lib/session.ts deletes them). */
let loadedFor: string | null = null;

function update(next: Partial<OfflineCopies>): void {
  copies = { ...copies, ...next };
  for (const listener of listeners) listener();
}

function withEntry<V>(map: ReadonlyMap<string, V>, id: string, value: V | undefined): Map<string, V> {
  const next = new Map(map);
  if (value === undefined) next.delete(id);
  else next.set(id, value);
  return next;
}

export function offlineCopies(): OfflineCopies {
  return copies;
}

export function onOfflineCopiesChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Cache Storage exists on secure origins only (and localhost): elsewhere nothing is kept. */
export function canKeepOffline(): boolean {
  return typeof caches !== 'undefined' && 'serviceWorker' in navigator;
}

/**
 * Reads which copies the device holds for `userId`'s session. The first account this page
 * sees is the session it started with, whose copies are read; a later one is a new session,
 * whose copies were deleted when it started.
 */
export function loadOfflineCopies(userId: string): void {
  if (loadedFor === userId) return;
  const first = loadedFor === null;
  loadedFor = userId;
  update({ stored: new Map(), saving: new Map() });
  if (!first || !canKeepOffline()) return;
  void (async () => {
    const cache = await caches.open(DEVICE_CACHES.offlineFiles);
    const stored = new Map<string, string>();
    for (const request of await cache.keys()) {
      const tag = (await cache.match(request))?.headers.get(OFFLINE_CONTENT_TAG_HEADER);
      const id = decodeURIComponent(new URL(request.url).pathname.split('/').pop() ?? '');
      if (tag && id) stored.set(id, tag);
    }
    if (loadedFor === userId) update({ stored });
  })().catch((error: unknown) => console.warn('Could not read the files kept offline.', error));
}

/** Raised when the device has no room left for a copy. */
export class DeviceFullError extends Error {}

/** The saves under way: asked again meanwhile, a file's save is the one already running. */
const inFlight = new Map<string, Promise<void>>();

/**
 * Stores `file`'s bytes on the device, replacing an older copy once the new one is whole:
 * the download streams from the server into Cache Storage (never whole in memory), reporting
 * how much is done through `offlineCopies().saving`. Rejects when the server or the network
 * refuses, with DeviceFullError when the device is full; nothing new is kept then.
 */
export function keepOffline(file: KeepableFile): Promise<void> {
  const running = inFlight.get(file.id);
  if (running) return running;
  update({ saving: withEntry(copies.saving, file.id, 0) });
  const saved = store(file).finally(() => {
    inFlight.delete(file.id);
    update({ saving: withEntry(copies.saving, file.id, undefined) });
  });
  inFlight.set(file.id, saved);
  return saved;
}

async function store(file: KeepableFile): Promise<void> {
  const session = getToken();
  // A PDF is drawn by pdf.js's worker, which the service worker keeps once fetched (src/service-worker/offline-files.ts).
  if (file.mimetype.toLowerCase().startsWith('application/pdf')) await fetch(pdfWorkerUrl).then((answer) => answer.arrayBuffer());
  const { url } = await api.post<DownloadLinkResponse>(`/files/${encodeURIComponent(file.id)}/download-link`);
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`The file could not be downloaded (${response.status})`);
  const total = Number(response.headers.get('content-length'));
  let received = 0;
  let shown = 0;
  const counting = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength;
      const done = total > 0 ? Math.floor((received / total) * 100) / 100 : 0;
      // A re-render per whole percent, not per chunk.
      if (done > shown) {
        shown = done;
        update({ saving: withEntry(copies.saving, file.id, done) });
      }
      controller.enqueue(chunk);
    },
  });
  const headers = new Headers(response.headers);
  headers.set(OFFLINE_CONTENT_TAG_HEADER, file.contentTag);
  // The stored body is the decoded one: it must not claim an encoding (nor its encoded length).
  if (headers.has('content-encoding')) {
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  const cache = await caches.open(DEVICE_CACHES.offlineFiles);
  try {
    await cache.put(offlineFileAddress(file.id), new Response(response.body.pipeThrough(counting), { status: 200, headers }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'QuotaExceededError') throw new DeviceFullError();
    throw error;
  }
  // The session ended while the file downloaded: its copy goes with the rest of its data.
  if (getToken() !== session) {
    await cache.delete(offlineFileAddress(file.id));
    return;
  }
  update({ stored: withEntry(copies.stored, file.id, file.contentTag) });
}

/** Deletes the device's copy of a file. */
export async function removeOfflineCopy(fileId: string): Promise<void> {
  const cache = await caches.open(DEVICE_CACHES.offlineFiles);
  await cache.delete(offlineFileAddress(fileId));
  update({ stored: withEntry(copies.stored, fileId, undefined) });
}

/**
 * The address the device's copy of a file loads from, or null: none is stored, or no service
 * worker controls the page to answer that address (the first visit, a forced reload).
 */
export async function offlineCopyAddress(fileId: string): Promise<string | null> {
  if (!canKeepOffline() || !navigator.serviceWorker.controller) return null;
  const address = offlineFileAddress(fileId);
  const cache = await caches.open(DEVICE_CACHES.offlineFiles);
  return (await cache.match(address)) ? address : null;
}

/** How long the frame of a download from the device stays: the browser has taken the download over by then. */
const DOWNLOAD_FRAME_MS = 60_000;

/**
 * Saves a stored copy through the browser's download manager. Not with `<a download>`:
 * Chromium starts those in the browser itself, past the service worker, so the network (or
 * nothing, offline) would answer. A hidden frame's navigation is asked of the service worker,
 * whose answer (the server's `Content-Disposition: attachment`, kept with the copy) becomes
 * the download, streamed from the device.
 */
export function downloadFromDevice(address: string): void {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = address;
  document.body.append(frame);
  setTimeout(() => frame.remove(), DOWNLOAD_FRAME_MS);
}
