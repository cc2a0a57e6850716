import { useCallback, useEffect, useRef, useState } from 'react';
import { LEAVE_REASON, LinkUploadFailure, uploadToLink } from '../api/upload-to-link';

/** Why a file did not arrive, as the visitor reads it. */
export type LinkUploadError = 'tooLarge' | 'full' | 'tooMany' | 'gone' | 'locked' | 'network' | 'failed';

/** One file of this visit: only what the visitor sent here is ever listed. */
export interface LinkUploadEntry {
  id: number;
  /** Where it goes: a folder inside an edit link's folder, or null for the shared folder. */
  folderId: string | null;
  name: string;
  size: number;
  sent: number;
  status: 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';
  /** The connection dropped: it goes on from the server's offset once it is back. */
  reconnecting?: boolean;
  error?: LinkUploadError;
}

/** The visitor's reading of a refusal (docs/api.md: 413 too large, 507 the owner's storage is full…). */
export function linkUploadError(error: unknown): LinkUploadError {
  if (!(error instanceof LinkUploadFailure)) return 'failed';
  if (error.passwordRequired) return 'locked';
  switch (error.status) {
    case 0:
      return 'network';
    case 413:
      return 'tooLarge';
    case 507:
      return 'full';
    case 429:
      return 'tooMany';
    case 404:
    case 410:
      return 'gone';
    default:
      return 'failed';
  }
}

interface LinkUploadsOptions {
  token: string;
  access: string | null;
  /** The largest file the owner's plan takes; larger ones are refused before any byte is sent. */
  maxFileSize?: number;
  /** A file arrived (an edit link lists it). */
  onUploaded?: () => void;
  /** The link's password grant ran out: ask for the password again. */
  onLocked?: () => void;
}

/**
 * The files a visitor sends through an upload or edit link in this visit, one at a time in
 * the order given, each with its progress, a cancel while it travels and a retry after.
 */
export function useLinkUploads({ token, access, maxFileSize, onUploaded, onLocked }: LinkUploadsOptions) {
  const [entries, setEntries] = useState<LinkUploadEntry[]>([]);
  const files = useRef(new Map<number, File>());
  const running = useRef<{ id: number; controller: AbortController } | null>(null);
  const nextId = useRef(1);
  const uploaderName = useRef('');
  const latest = useRef({ token, access, onUploaded, onLocked });
  latest.current = { token, access, onUploaded, onLocked };

  const update = useCallback((id: number, change: Partial<LinkUploadEntry>) => {
    setEntries((current) => current.map((entry) => (entry.id === id ? { ...entry, ...change } : entry)));
  }, []);

  // One upload at a time: the next queued file starts once the one before has settled.
  useEffect(() => {
    if (running.current) return;
    const next = entries.find((entry) => entry.status === 'queued');
    const file = next && files.current.get(next.id);
    if (!next || !file) return;
    const controller = new AbortController();
    running.current = { id: next.id, controller };
    update(next.id, { status: 'uploading', sent: 0, error: undefined, reconnecting: false });
    const { token: linkToken, access: grant } = latest.current;
    uploadToLink({
      token: linkToken,
      access: grant,
      file,
      folderId: next.folderId,
      uploaderName: uploaderName.current.trim(),
      signal: controller.signal,
      onProgress: (sent) => update(next.id, { sent }),
      onReconnecting: (reconnecting) => update(next.id, { reconnecting }),
    }).then(
      () => {
        running.current = null;
        files.current.delete(next.id);
        update(next.id, { status: 'done', sent: file.size, reconnecting: false });
        latest.current.onUploaded?.();
      },
      (error: unknown) => {
        running.current = null;
        if (controller.signal.aborted) {
          update(next.id, { status: 'cancelled', reconnecting: false });
          return;
        }
        const reason = linkUploadError(error);
        update(next.id, { status: 'failed', error: reason, reconnecting: false });
        if (reason === 'locked') latest.current.onLocked?.();
      },
    );
  }, [entries, update]);

  // Leaving the page (or its password lapsing) stops what still travels; a resumable one stays
  // on the server and goes on when the same file is dropped again.
  useEffect(() => () => running.current?.controller.abort(LEAVE_REASON), []);

  const add = useCallback(
    (picked: readonly File[], folderId: string | null) => {
      const added = picked.map((file): LinkUploadEntry => {
        const id = nextId.current++;
        const tooLarge = maxFileSize !== undefined && file.size > maxFileSize;
        if (!tooLarge) files.current.set(id, file);
        return tooLarge
          ? { id, folderId, name: file.name, size: file.size, sent: 0, status: 'failed', error: 'tooLarge' }
          : { id, folderId, name: file.name, size: file.size, sent: 0, status: 'queued' };
      });
      setEntries((current) => [...current, ...added]);
    },
    [maxFileSize],
  );

  const cancel = useCallback(
    (id: number) => {
      if (running.current?.id === id) running.current.controller.abort();
      else update(id, { status: 'cancelled' });
    },
    [update],
  );

  const retry = useCallback(
    (id: number) => {
      if (files.current.has(id)) update(id, { status: 'queued', sent: 0, error: undefined });
    },
    [update],
  );

  const setUploaderName = useCallback((name: string) => {
    uploaderName.current = name;
  }, []);

  return { entries, add, cancel, retry, setUploaderName };
}
