/// <reference lib="webworker" />
import { registerRoute } from 'workbox-routing';
import { DEVICE_CACHES } from '../lib/device-caches';
import {
  arrivedAt,
  batchOfKey,
  SHARED_FILE_HEADERS,
  SHARE_BATCH_MAX_AGE_MS,
  SHARE_PAGE,
  SHARE_TARGET_PATH,
  sharedFileKey,
} from '../lib/shared-in';

declare const self: ServiceWorkerGlobalScope;

/**
 * The phone's share sheet sending files to CloudVault (the manifest's share_target, a form
 * POST to /share-target): each file is kept in Cache Storage under one batch id, its name,
 * type and size in headers, and the share opens /share?batch=<id>, where the user picks a
 * folder and uploads them (src/features/share-in). A Response made from a File is stored as
 * the browser's blob, on disk, not copied through this worker's memory.
 */
export function receiveSharedFiles(): void {
  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && url.pathname === SHARE_TARGET_PATH,
    ({ request }) => keepShared(request),
    'POST',
  );
}

async function keepShared(request: Request): Promise<Response> {
  const cache = await caches.open(DEVICE_CACHES.sharedIn);
  await forgetOldBatches(cache).catch((error: unknown) => console.warn('Could not clean old shared files.', error));
  const batch = `${Date.now()}-${crypto.randomUUID()}`;
  const kept: string[] = [];
  try {
    const form = await request.formData();
    const files = form.getAll('files').filter((entry): entry is File => entry instanceof File && entry.name !== '');
    const note = files.length === 0 ? noteOf(form) : null;
    for (const [index, file] of [...files, ...(note ? [note] : [])].entries()) {
      const key = sharedFileKey(batch, index);
      await cache.put(
        key,
        new Response(file, {
          headers: {
            'Content-Type': file.type || 'application/octet-stream',
            // A header carries Latin-1 only: the name is percent-encoded.
            [SHARED_FILE_HEADERS.name]: encodeURIComponent(file.name),
            [SHARED_FILE_HEADERS.size]: String(file.size),
          },
        }),
      );
      kept.push(key);
    }
  } catch (error) {
    // A body that is no form, or a device out of space: nothing half kept; the page says nothing arrived.
    console.warn('Could not keep the shared files.', error);
    await Promise.all(kept.map((key) => cache.delete(key)));
    return Response.redirect(new URL(SHARE_PAGE, self.location.origin).href, 303);
  }
  const page = kept.length === 0 ? SHARE_PAGE : `${SHARE_PAGE}?batch=${batch}`;
  // 303: the page is opened with GET, so reloading it does not send the files again.
  return Response.redirect(new URL(page, self.location.origin).href, 303);
}

/**
 * A share of a link or a text without files (a browser's Share of a page): kept as a note,
 * named after its title, else the link's host, else its first words.
 */
function noteOf(form: FormData): File | null {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  const [title, text, url] = [field('title'), field('text'), field('url')];
  const body = [title, text, url].filter((part) => part !== '');
  if (text === '' && url === '') return null;
  let host = '';
  try {
    host = url === '' ? '' : new URL(url).host;
  } catch {
    // Not a URL: named after the text.
  }
  const name = (title || host || text.split('\n')[0] || '')
    // No slash or control character in a file name; at most 60 characters of it.
    // eslint-disable-next-line no-control-regex
    .replace(/[/\\\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 60);
  return new File([body.join('\n\n') + '\n'], `${name || 'note'}.txt`, { type: 'text/plain' });
}

/** Batches never picked up (the page was closed, the user never came back) go after a day, at the next share. */
async function forgetOldBatches(cache: Cache): Promise<void> {
  const now = Date.now();
  const keys = await cache.keys();
  await Promise.all(
    keys
      .filter((request) => now - (arrivedAt(batchOfKey(request.url) ?? '') ?? 0) > SHARE_BATCH_MAX_AGE_MS)
      .map((request) => cache.delete(request)),
  );
}
