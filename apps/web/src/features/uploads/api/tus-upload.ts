import type { FileItem } from '@cloudvault/contract/files';
import type { HttpResponse } from 'tus-js-client';
import { getFiles } from '../../../hooks/use-files';
import { apiUrl, getToken, reportUnauthorized } from '../../../lib/api-client';
import { pauseWhileOffline } from '../../../lib/tus-offline';
import { chunkSizeFor, isRetryableStatus, RETRY_DELAYS_MS } from '../upload-chunks';
import { type UnfinishedUploadStore, uploadFingerprint } from '../unfinished-uploads';
import { PAUSE_REASON, UploadFailure, type UploadTransport } from '../upload-queue';

export interface TusTransportDeps {
  store: UnfinishedUploadStore;
  /** The signed-in user's id: whose unfinished uploads these are. */
  owner: () => string;
}

/** tus-js-client is fetched with the first large upload: pages that upload nothing big never load it. */
const loadTus = () => import('tus-js-client');

/** The name of the Web Lock a page holds while it sends an upload (another tab's reload must not offer it). */
export const uploadLockName = (uploadUrl: string) => `cloudvault-upload ${uploadUrl}`;

/** The tus endpoint as an absolute address: tus-js-client resolves the upload's Location against it. */
const endpoint = () => new URL(apiUrl('/uploads'), window.location.origin).href;

/**
 * POST /api/uploads and PATCHes in chunks (docs/api.md#resumable-uploads) through
 * tus-js-client. It slices the File, so no more than a chunk's slice handle is held, never
 * the bytes. Lost connections are retried with backoff and resume from the server's
 * offset; going offline stops the transfer until the browser is back online. The upload's
 * address is kept (UnfinishedUploadStore) until it completes or is cancelled, so a reload
 * can resume it. Resolves with the file the upload became (null if it cannot be found).
 */
export function createTusTransport({ store, owner }: TusTransportDeps): UploadTransport<FileItem | null> {
  return async (file, folderId, { onProgress, signal, onReconnecting, onResumeKey, resumeKey, conflict }) => {
    const { Upload } = await loadTus();
    return new Promise<FileItem | null>((resolve, reject) => {
      if (signal.aborted) {
        reject(new DOMException('Upload cancelled', 'AbortError'));
        return;
      }
      const token = getToken();
      let fileId: string | null = null;
      let releaseLock: (() => void) | null = null;
      const holdLock = (uploadUrl: string) => {
        if (releaseLock || !navigator.locks) return;
        const released = new Promise<void>((release) => (releaseLock = release));
        void navigator.locks.request(uploadLockName(uploadUrl), () => released);
      };

      const upload = new Upload(file, {
        endpoint: endpoint(),
        chunkSize: chunkSizeFor(file.size),
        retryDelays: [...RETRY_DELAYS_MS],
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        metadata: {
          filename: file.name,
          filetype: file.type || 'application/octet-stream',
          ...(folderId === null ? {} : { folderId }),
          ...(conflict ? { conflict } : {}),
        },
        urlStorage: store,
        fingerprint: () => Promise.resolve(uploadFingerprint(owner(), file.name, file.size)),
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        onUploadUrlAvailable: () => {
          if (!upload.url) return;
          holdLock(upload.url);
          onResumeKey?.(upload.url);
        },
        onProgress: (sent) => onProgress(sent),
        onAfterResponse: (_request, response) => {
          fileId = response.getHeader('X-File-Id') ?? fileId;
        },
        onShouldRetry: (error) => {
          const retry = retriesAfter(error.originalResponse ?? null);
          if (retry) onReconnecting?.(true);
          return retry;
        },
        onSuccess: () => {
          cleanUp();
          if (upload.url) store.removeByUrl(upload.url);
          if (fileId === null) {
            resolve(null);
            return;
          }
          const id = fileId;
          getFiles(folderId).then(
            (files) => resolve(files.find((entry) => entry.id === id) ?? null),
            // The file is in; only its listing entry could not be read.
            () => resolve(null),
          );
        },
        onError: (error) => {
          cleanUp();
          const response = 'originalResponse' in error ? error.originalResponse : null;
          if (response?.getStatus() === 401) reportUnauthorized(token);
          const refusal = refusalOf(response);
          reject(new UploadFailure(response?.getStatus() ?? 0, refusal.error, refusal.code));
        },
      });

      const network = pauseWhileOffline(upload, onReconnecting);
      const stop = () => {
        cleanUp();
        // A pause keeps the upload on the server; a cancel deletes it and frees its reservation.
        const terminate = signal.reason !== PAUSE_REASON;
        upload.abort(terminate).catch(() => {
          // The DELETE did not get through: the server expires the upload within 24 hours.
        });
        if (terminate && upload.url) store.removeByUrl(upload.url);
        reject(new DOMException('Upload stopped', 'AbortError'));
      };
      function cleanUp() {
        releaseLock?.();
        network.cleanUp();
        signal.removeEventListener('abort', stop);
      }
      signal.addEventListener('abort', stop, { once: true });

      const previous = resumeKey ? store.findByUrl(resumeKey) : undefined;
      if (previous) {
        upload.resumeFromPreviousUpload(previous);
      } else if (resumeKey) {
        // Not in storage (storage refused): resume from the address alone.
        upload.options.uploadUrl = resumeKey;
      }
      network.start();
    });
  };
}

/**
 * Whether tus-js-client tries again after this answer (upload-chunks.ts), except for a name
 * the folder holds (409 NAME_TAKEN at creation, an upload sent with conflict `fail`): that
 * one is asked about (docs/decisions/0050-name-clashes.md), never repeated as it was.
 */
export function retriesAfter(response: HttpResponse | null): boolean {
  return isRetryableStatus(response?.getStatus() ?? 0) && refusalOf(response).code !== 'NAME_TAKEN';
}

/** The `error` text and `code` of a JSON refusal (413, 507, 429, name errors…), as the server wrote them. */
function refusalOf(response: HttpResponse | null): { error?: string; code?: string } {
  if (!response) return {};
  try {
    const body: unknown = JSON.parse(response.getBody());
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
    return { error: text(record.error), code: text(record.code) };
  } catch {
    return {};
  }
}

/** Deletes an upload the server keeps that no transfer is running for (a paused, failed or restored row dropped). */
export function discardTusUpload(store: UnfinishedUploadStore, uploadUrl: string): void {
  store.removeByUrl(uploadUrl);
  const token = getToken();
  loadTus()
    .then(({ Upload }) =>
      Upload.terminate(uploadUrl, { headers: token ? { Authorization: `Bearer ${token}` } : {}, retryDelays: [0, 1000, 3000] }),
    )
    .catch(() => {
      // Not reachable now: the server expires it within 24 hours.
    });
}
