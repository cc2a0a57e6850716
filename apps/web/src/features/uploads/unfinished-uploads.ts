import type { PreviousUpload, UrlStorage } from 'tus-js-client';

/**
 * The browser's list of unfinished tus uploads (tus-js-client's URL storage), kept in
 * localStorage so that a reload can offer to resume them. Entries are scoped to the
 * signed-in user through the fingerprint, and dropped once the server has forgotten the
 * upload (docs/api.md#resumable-uploads: unfinished uploads expire after 24 hours).
 */

const KEY_PREFIX = 'cloudvault.upload::';

/** docs/api.md#resumable-uploads: the server expires an unfinished upload after this long. */
export const UNFINISHED_UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** One unfinished upload as the progress panel offers it after a reload. */
export interface UnfinishedUpload {
  /** The upload's address on the server: the queue's resume key. */
  uploadUrl: string;
  name: string;
  size: number;
  folderId: string | null;
}

/**
 * Which uploads are whose: the owner's id, the size and the name. A file picked again
 * must match the name and the size (docs/decisions/0026-browser-resumable-uploads.md).
 */
export function uploadFingerprint(owner: string, name: string, size: number): string {
  return `${encodeURIComponent(owner)}/${size}/${encodeURIComponent(name)}`;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** The storage, or null where the browser refuses it (private mode, sandboxed frames). */
function browserStorage(): KeyValueStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export class UnfinishedUploadStore implements UrlStorage {
  constructor(
    private readonly storage: () => KeyValueStorage | null = browserStorage,
    private readonly now: () => number = Date.now,
  ) {}

  findAllUploads(): Promise<PreviousUpload[]> {
    return Promise.resolve(this.entries(KEY_PREFIX));
  }

  findUploadsByFingerprint(fingerprint: string): Promise<PreviousUpload[]> {
    return Promise.resolve(this.entries(`${KEY_PREFIX}${fingerprint}::`));
  }

  removeUpload(urlStorageKey: string): Promise<void> {
    this.storage()?.removeItem(urlStorageKey);
    return Promise.resolve();
  }

  addUpload(fingerprint: string, upload: PreviousUpload): Promise<string> {
    const key = `${KEY_PREFIX}${fingerprint}::${crypto.randomUUID()}`;
    try {
      this.storage()?.setItem(key, JSON.stringify({ ...upload, urlStorageKey: key }));
    } catch {
      // Storage full or refused: the upload still runs, it just cannot be resumed after a reload.
    }
    return Promise.resolve(key);
  }

  /** The owner's unfinished uploads that the server still holds, oldest first. */
  forOwner(owner: string): UnfinishedUpload[] {
    const prefix = `${KEY_PREFIX}${encodeURIComponent(owner)}/`;
    return this.entries(prefix)
      .sort((a, b) => Date.parse(a.creationTime) - Date.parse(b.creationTime))
      .flatMap((entry): UnfinishedUpload[] => {
        const name = entry.metadata.filename;
        if (!entry.uploadUrl || !name || entry.size === null) return [];
        return [{ uploadUrl: entry.uploadUrl, name, size: entry.size, folderId: entry.metadata.folderId ?? null }];
      });
  }

  /** The stored entry of the upload at `uploadUrl`, to resume it from. */
  findByUrl(uploadUrl: string): PreviousUpload | undefined {
    return this.entries(KEY_PREFIX).find((entry) => entry.uploadUrl === uploadUrl);
  }

  /** Forgets the upload at `uploadUrl` (finished elsewhere, terminated, or refused). */
  removeByUrl(uploadUrl: string): void {
    const entry = this.findByUrl(uploadUrl);
    if (entry) this.storage()?.removeItem(entry.urlStorageKey);
  }

  private entries(prefix: string): PreviousUpload[] {
    const storage = this.storage();
    if (!storage) return [];
    const keys: string[] = [];
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index);
      if (key?.startsWith(prefix)) keys.push(key);
    }
    const found: PreviousUpload[] = [];
    for (const key of keys) {
      const entry = parseEntry(storage.getItem(key));
      const expired = !entry || !(this.now() - Date.parse(entry.creationTime) < UNFINISHED_UPLOAD_LIFETIME_MS);
      if (expired) {
        // The server has let it go (or the entry is unreadable): nothing left to resume.
        storage.removeItem(key);
        continue;
      }
      found.push({ ...entry, urlStorageKey: key });
    }
    return found;
  }
}

function parseEntry(raw: string | null): PreviousUpload | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const entry = value as Partial<PreviousUpload>;
    if (typeof entry.creationTime !== 'string' || typeof entry.metadata !== 'object' || entry.metadata === null) return null;
    return {
      size: typeof entry.size === 'number' ? entry.size : null,
      metadata: entry.metadata,
      creationTime: entry.creationTime,
      urlStorageKey: '',
      uploadUrl: typeof entry.uploadUrl === 'string' ? entry.uploadUrl : null,
      parallelUploadUrls: null,
    };
  } catch {
    return null;
  }
}
