import type { PublicUploadResponse } from '@cloudvault/contract/shares';
import type { HttpResponse } from 'tus-js-client';
import { apiUrl } from '../../../lib/api-client';
import { pauseWhileOffline } from '../../../lib/tus-offline';

const MiB = 1024 * 1024;

/**
 * Files from this size travel over tus, resumable: below it a lost connection costs seconds,
 * and one multipart request is cheaper than tus's creation, PATCHes and HEAD.
 */
export const LINK_RESUMABLE_FROM_BYTES = 8 * MiB;

/** A tus PATCH carries about a thirty-second of the file, within 16–64 MiB (as the dashboard's uploads). */
export function linkChunkSize(size: number): number {
  return Math.min(64 * MiB, Math.max(16 * MiB, Math.ceil(size / 32 / MiB) * MiB));
}

/** Waits between tus attempts after a lost connection or a 5xx: quick at first, then every 30 s. */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, ...Array<number>(20).fill(30_000)];

/** The abort reason of a transfer stopped because its page went away, not by the visitor's cancel. */
export const LEAVE_REASON = 'left';

/** Why a visitor's upload did not arrive: the answer's status (0: no answer) and code. */
export class LinkUploadFailure extends Error {
  constructor(
    readonly status: number,
    readonly code?: string,
    readonly passwordRequired = false,
  ) {
    super(`Upload failed with status ${status}`);
  }
}

export interface LinkUpload {
  token: string;
  /** An unlocked password link's grant (X-Share-Access). */
  access: string | null;
  file: File;
  /** The folder inside an edit link's folder it goes to; null: the shared folder itself. */
  folderId: string | null;
  /** The name the visitor gave, or empty. */
  uploaderName: string;
  onProgress: (sentBytes: number) => void;
  /** A resumable upload lost its connection and waits to go on (true), or goes on (false). */
  onReconnecting?: (waiting: boolean) => void;
  signal: AbortSignal;
}

const linkPath = (token: string, tail: string) => `/public/shares/${encodeURIComponent(token)}${tail}`;

/** Sends a file through a link, multipart or resumable by its size. */
export function uploadToLink(upload: LinkUpload): Promise<PublicUploadResponse['file']> {
  return upload.file.size >= LINK_RESUMABLE_FROM_BYTES ? uploadResumably(upload) : uploadInOneRequest(upload);
}

/** The `code` and `passwordRequired` of a JSON refusal. */
function refusalOf(text: string): { code?: string; passwordRequired: boolean } {
  try {
    const body: unknown = JSON.parse(text);
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    return { code: typeof record.code === 'string' ? record.code : undefined, passwordRequired: record.passwordRequired === true };
  } catch {
    return { passwordRequired: false };
  }
}

/**
 * POST /api/public/shares/:token/files over XMLHttpRequest, for its progress events. The File
 * goes into FormData as it is, so the browser streams it from disk; `uploaderName` and
 * `folderId` come before the file part, as the server wants them.
 */
function uploadInOneRequest({
  token,
  access,
  file,
  folderId,
  uploaderName,
  onProgress,
  signal,
}: LinkUpload): Promise<PublicUploadResponse['file']> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('Upload cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(linkPath(token, '/files')));
    xhr.setRequestHeader('Accept', 'application/json');
    if (access) xhr.setRequestHeader('X-Share-Access', access);
    xhr.upload.onprogress = (event) => {
      // `loaded` counts the multipart envelope too; scale it to the file's own bytes.
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * file.size));
    };
    xhr.onload = () => {
      if (xhr.status === 201) {
        try {
          resolve((JSON.parse(xhr.responseText) as PublicUploadResponse).file);
        } catch {
          resolve({ name: file.name, size: file.size });
        }
        return;
      }
      const refusal = refusalOf(xhr.responseText);
      reject(new LinkUploadFailure(xhr.status, refusal.code, refusal.passwordRequired));
    };
    xhr.onerror = () => reject(new LinkUploadFailure(0));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });

    const form = new FormData();
    if (uploaderName) form.append('uploaderName', uploaderName);
    if (folderId !== null) form.append('folderId', folderId);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** Whether tus-js-client tries again after this answer: no answer, a 5xx, 423 (locked) or 409 (offset moved). */
function retries(response: HttpResponse | null): boolean {
  const status = response?.getStatus() ?? 0;
  return status === 0 || status === 409 || status === 423 || status >= 500;
}

/**
 * The link's tus endpoint in chunks, through tus-js-client (fetched with the first large
 * file). The upload's address is kept in localStorage under the link, the name and the size,
 * so the same file dropped again after a reload goes on from the server's offset; a lost
 * connection is retried, and going offline waits for the network, then carries on.
 */
async function uploadResumably({
  token,
  access,
  file,
  folderId,
  uploaderName,
  onProgress,
  onReconnecting,
  signal,
}: LinkUpload): Promise<PublicUploadResponse['file']> {
  const { Upload } = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('Upload cancelled', 'AbortError'));
      return;
    }
    const upload = new Upload(file, {
      endpoint: new URL(apiUrl(linkPath(token, '/uploads')), window.location.origin).href,
      chunkSize: linkChunkSize(file.size),
      retryDelays: RETRY_DELAYS_MS,
      headers: access ? { 'X-Share-Access': access } : {},
      metadata: {
        filename: file.name,
        filetype: file.type || 'application/octet-stream',
        ...(uploaderName ? { uploaderName } : {}),
        ...(folderId === null ? {} : { folderId }),
      },
      fingerprint: () => Promise.resolve(`cloudvault-link/${token}/${folderId ?? ''}/${file.size}/${encodeURIComponent(file.name)}`),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent) => {
        onReconnecting?.(false);
        onProgress(sent);
      },
      onShouldRetry: (error) => {
        const retry = retries(error.originalResponse ?? null);
        if (retry) onReconnecting?.(true);
        return retry;
      },
      onSuccess: () => {
        cleanUp();
        resolve({ name: file.name, size: file.size });
      },
      onError: (error) => {
        cleanUp();
        const response = 'originalResponse' in error ? error.originalResponse : null;
        const refusal = refusalOf(response?.getBody() ?? '');
        reject(new LinkUploadFailure(response?.getStatus() ?? 0, refusal.code, refusal.passwordRequired));
      },
    });

    const network = pauseWhileOffline(upload, onReconnecting);
    const stop = () => {
      cleanUp();
      // A cancel deletes the upload on the server and frees what it reserved; leaving the
      // page keeps it there, for the same file dropped again to go on.
      upload.abort(signal.reason !== LEAVE_REASON).catch(() => {
        // Not reachable: the server expires an unfinished upload by itself.
      });
      reject(new DOMException('Upload cancelled', 'AbortError'));
    };
    function cleanUp() {
      network.cleanUp();
      signal.removeEventListener('abort', stop);
    }
    signal.addEventListener('abort', stop, { once: true });

    // The same file sent before through this link (a reload, a retry): go on where it stopped.
    void upload.findPreviousUploads().then(
      (previous) => {
        if (signal.aborted) return;
        const last = previous.sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
        if (last) upload.resumeFromPreviousUpload(last);
        network.start();
      },
      () => {
        if (!signal.aborted) upload.start();
      },
    );
  });
}
