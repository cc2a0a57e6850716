/**
 * The upload queue: the browser's side of docs/product.md#uploads. Files wait in order
 * and at most `concurrency` of them travel at once; each can be cancelled, and a
 * resumable one paused and resumed, or picked again after a reload. It knows no HTTP
 * (the transport is given) and no React (components subscribe to snapshots).
 *
 * A row's life: queued → uploading → success | error. A resumable row may also go
 * uploading ⇄ paused (paused → queued on resume), and a row restored after a reload
 * starts as needs-file until the user picks the same file again (→ queued).
 */

import type { NameConflict } from '@cloudvault/contract/files';

export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'needs-file' | 'success' | 'error';

/** One row of the progress panel. */
export interface UploadEntry {
  id: string;
  batchId: string;
  name: string;
  /** Bytes. */
  size: number;
  folderId: string | null;
  status: UploadStatus;
  /** Bytes sent so far. */
  loaded: number;
  /** Bytes per second, refreshed once a second; null until it can be measured. */
  speed: number | null;
  /** Seconds left at the current speed, refreshed with `speed`. */
  remainingSeconds: number | null;
  /** The server's message for a failed upload; null when it sent none. */
  error: string | null;
  /** It travels over tus: it can be paused, and resumed after a reload. */
  resumable: boolean;
  /** The connection is lost and the transport is waiting to get through again. */
  reconnecting: boolean;
}

/** The abort reason of a pause: the transport keeps the upload on the server. Any other reason cancels it. */
export const PAUSE_REASON = 'paused';

/** A refused or failed upload: `message` is the server's text when it sent one. */
export class UploadFailure extends Error {
  override readonly name = 'UploadFailure';

  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
    /** The server's stable error code (NAME_TAKEN…), when it sent one. */
    readonly code?: string,
  ) {
    super(serverMessage ?? `Upload failed with status ${status}`);
  }
}

export interface TransportOptions {
  /** Bytes the server has, including those of earlier attempts. */
  onProgress: (loaded: number) => void;
  /** Aborted with PAUSE_REASON to pause, with anything else to cancel. */
  signal: AbortSignal;
  /** True when the connection dropped and retries run, false once bytes flow again. */
  onReconnecting?: (reconnecting: boolean) => void;
  /** Where the server keeps the upload, once it does: passed back as `resumeKey` to resume. */
  onResumeKey?: (resumeKey: string) => void;
  /** An upload to continue instead of starting a new one (after a pause or a reload). */
  resumeKey?: string | null;
  /** What the server does with a name the folder holds (docs/api.md#name-clashes); absent: its default. */
  conflict?: NameConflict;
}

export type UploadTransport<Result> = (file: File, folderId: string | null, options: TransportOptions) => Promise<Result>;

/** An upload found unfinished after a reload: its row waits for the file to be picked again. */
export interface RestoredUpload {
  resumeKey: string;
  name: string;
  size: number;
  folderId: string | null;
}

export interface BatchSummary {
  batchId: string;
  succeeded: number;
  failed: number;
}

export interface UploadQueueOptions<Result> {
  transport: UploadTransport<Result>;
  concurrency: number;
  onUploaded?: (result: Result, entry: UploadEntry) => void;
  onFailed?: (entry: UploadEntry) => void;
  /** Once every file of an add() call has succeeded, failed or been cancelled. */
  onBatchSettled?: (summary: BatchSummary) => void;
  /** Whether a file of this size travels resumably (pausable); none do when absent. */
  resumable?: (size: number) => boolean;
  /** Gives up an upload the server keeps that is not travelling now (a paused, failed or restored row is dropped). */
  discard?: (resumeKey: string) => void;
  /**
   * A file sent with conflict `fail` whose name was taken meanwhile (409 NAME_TAKEN): the
   * choice to send it again with, or null to skip it (it then counts as cancelled).
   */
  onNameTaken?: (entry: UploadEntry) => Promise<NameConflict | null>;
}

/** docs/product.md#uploads: a completed row stays this long. */
export const COMPLETED_ROW_MS = 3000;
/** docs/product.md#uploads: speed and remaining time refresh this often. */
export const SPEED_REFRESH_MS = 1000;
/** The server said "too many at once" (another tab is uploading): try again after a pause. */
const BUSY_RETRY_MS = 1500;
const BUSY_RETRIES = 5;

interface Job {
  /** Null for a restored row until the file is picked again. */
  file: File | null;
  resumeKey: string | null;
  controller: AbortController | null;
  busyRetries: number;
  /** Not started again before this time (after a 429; Infinity while the person is asked about a clash). */
  notBefore: number;
  conflict: NameConflict | undefined;
  sample: { at: number; loaded: number } | null;
}

interface Batch {
  total: number;
  succeeded: number;
  failed: number;
  cancelled: number;
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

export class UploadQueue<Result = unknown> {
  private entries: UploadEntry[] = [];
  private readonly jobs = new Map<string, Job>();
  private readonly batches = new Map<string, Batch>();
  private readonly removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly listeners = new Set<() => void>();
  private speedTimer: ReturnType<typeof setInterval> | null = null;
  private wakeTimer: ReturnType<typeof setTimeout> | null = null;
  private concurrency: number;

  constructor(private readonly options: UploadQueueOptions<Result>) {
    this.concurrency = Math.max(1, options.concurrency);
  }

  // --- For components (useSyncExternalStore) ---------------------------------------------

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): readonly UploadEntry[] => this.entries;

  /** True while a file waits or travels (paused and restored rows wait for the user, not the queue). */
  get busy(): boolean {
    return this.entries.some((entry) => entry.status === 'queued' || entry.status === 'uploading');
  }

  // --- Commands ---------------------------------------------------------------------------

  /** Queues files (each into its folder); returns the batch id of their summary. */
  add(items: ReadonlyArray<{ file: File; folderId: string | null; conflict?: NameConflict }>): string {
    const batchId = nextId('batch');
    if (items.length === 0) return batchId;
    this.batches.set(batchId, { total: items.length, succeeded: 0, failed: 0, cancelled: 0 });
    const added = items.map(({ file, folderId, conflict }): UploadEntry => {
      const id = nextId('upload');
      this.jobs.set(id, { file, resumeKey: null, controller: null, busyRetries: 0, notBefore: 0, sample: null, conflict });
      return {
        id,
        batchId,
        name: file.name,
        size: file.size,
        folderId,
        status: 'queued',
        loaded: 0,
        speed: null,
        remainingSeconds: null,
        error: null,
        resumable: this.options.resumable?.(file.size) ?? false,
        reconnecting: false,
      };
    });
    this.entries = [...this.entries, ...added];
    this.emit();
    this.pump();
    return batchId;
  }

  /**
   * Adds a row for each upload found unfinished after a reload (none twice); each waits
   * for its file (provideFile). They form one batch, summarised like any other.
   */
  restore(uploads: readonly RestoredUpload[]): void {
    const known = new Set([...this.jobs.values()].map((job) => job.resumeKey));
    const fresh = uploads.filter((upload) => !known.has(upload.resumeKey));
    if (fresh.length === 0) return;
    const batchId = nextId('batch');
    this.batches.set(batchId, { total: fresh.length, succeeded: 0, failed: 0, cancelled: 0 });
    const added = fresh.map((upload): UploadEntry => {
      const id = nextId('upload');
      this.jobs.set(id, {
        file: null,
        resumeKey: upload.resumeKey,
        controller: null,
        busyRetries: 0,
        notBefore: 0,
        sample: null,
        conflict: undefined,
      });
      return {
        id,
        batchId,
        name: upload.name,
        size: upload.size,
        folderId: upload.folderId,
        status: 'needs-file',
        loaded: 0,
        speed: null,
        remainingSeconds: null,
        error: null,
        resumable: true,
        reconnecting: false,
      };
    });
    this.entries = [...this.entries, ...added];
    this.emit();
  }

  /**
   * The file picked again for a restored row: it resumes when the name and the size match
   * the unfinished upload's; otherwise it is refused (false) and the row keeps waiting.
   */
  provideFile(id: string, file: File): boolean {
    const entry = this.find(id);
    const job = this.jobs.get(id);
    if (!entry || !job || entry.status !== 'needs-file') return false;
    if (file.name !== entry.name || file.size !== entry.size) return false;
    job.file = file;
    this.update(id, { status: 'queued' });
    this.pump();
    return true;
  }

  /** Pauses a resumable upload: the server keeps what it has, the slot goes to the next file. */
  pause(id: string): void {
    const entry = this.find(id);
    if (!entry?.resumable || (entry.status !== 'uploading' && entry.status !== 'queued')) return;
    this.jobs.get(id)?.controller?.abort(PAUSE_REASON);
    this.update(id, { status: 'paused', speed: null, remainingSeconds: null, reconnecting: false });
    this.pump();
  }

  /** Queues a paused upload again; it continues from the server's offset. */
  resume(id: string): void {
    const entry = this.find(id);
    const job = this.jobs.get(id);
    if (entry?.status !== 'paused' || !job) return;
    job.notBefore = 0;
    this.update(id, { status: 'queued' });
    this.pump();
  }

  /**
   * Stops a waiting, running, paused or restored upload and drops its row; it counts
   * neither way. The server lets go of it too (a running one through its transport).
   */
  cancel(id: string): void {
    const entry = this.find(id);
    if (!entry) return;
    if (entry.status !== 'success' && entry.status !== 'error') {
      this.stop(entry);
      this.settle(entry, 'cancelled');
    }
    this.remove(id);
    this.pump();
  }

  /** Drops a finished (failed or completed) row; the server lets go of a failed resumable one. */
  dismiss(id: string): void {
    const entry = this.find(id);
    if (entry?.status !== 'success' && entry?.status !== 'error') return;
    if (entry.status === 'error') this.stop(entry);
    this.remove(id);
  }

  /** The panel's close button: cancels everything still going and empties the list. */
  clear(): void {
    for (const entry of [...this.entries]) {
      if (entry.status !== 'success') this.stop(entry);
      if (entry.status !== 'success' && entry.status !== 'error') this.settle(entry, 'cancelled');
      this.remove(entry.id, false);
    }
    this.emit();
  }

  /**
   * Signing out: every row goes and nothing is summarised. Resumable uploads are only
   * paused: the server and the browser keep them, so the next sign-in offers them again
   * (the ended session could not delete them anyway).
   */
  abandon(): void {
    for (const entry of [...this.entries]) {
      if (entry.status === 'uploading') this.jobs.get(entry.id)?.controller?.abort(entry.resumable ? PAUSE_REASON : undefined);
      this.remove(entry.id, false);
    }
    this.batches.clear();
    this.emit();
  }

  setConcurrency(concurrency: number): void {
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  /** Re-measures speed and remaining time; runs every SPEED_REFRESH_MS while uploading. */
  refreshSpeeds(now: number = Date.now()): void {
    let changed = false;
    this.entries = this.entries.map((entry) => {
      const job = this.jobs.get(entry.id);
      if (entry.status !== 'uploading' || entry.reconnecting || !job?.sample) return entry;
      const seconds = (now - job.sample.at) / 1000;
      if (seconds <= 0) return entry;
      const measured = Math.max(0, (entry.loaded - job.sample.loaded) / seconds);
      // A little smoothing keeps the figures from jumping with every network hiccup.
      const speed = entry.speed === null ? measured : entry.speed * 0.3 + measured * 0.7;
      job.sample = { at: now, loaded: entry.loaded };
      changed = true;
      return { ...entry, speed, remainingSeconds: speed > 0 ? (entry.size - entry.loaded) / speed : null };
    });
    if (changed) this.emit();
  }

  // --- Internals --------------------------------------------------------------------------

  private find(id: string): UploadEntry | undefined {
    return this.entries.find((entry) => entry.id === id);
  }

  private update(id: string, changes: Partial<UploadEntry>): UploadEntry | undefined {
    let updated: UploadEntry | undefined;
    this.entries = this.entries.map((entry) => {
      if (entry.id !== id) return entry;
      updated = { ...entry, ...changes };
      return updated;
    });
    if (updated) this.emit();
    return updated;
  }

  private remove(id: string, notify = true): void {
    const timer = this.removalTimers.get(id);
    if (timer) clearTimeout(timer);
    this.removalTimers.delete(id);
    this.jobs.delete(id);
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => entry.id !== id);
    if (notify && this.entries.length !== before) this.emit();
  }

  /** Cancels the transfer (its transport terminates it) or discards what the server keeps of an idle one. */
  private stop(entry: UploadEntry): void {
    const job = this.jobs.get(entry.id);
    if (!job) return;
    if (entry.status === 'uploading' && job.controller) {
      job.controller.abort();
    } else if (job.resumeKey) {
      this.options.discard?.(job.resumeKey);
    }
    job.resumeKey = null;
  }

  private running(): number {
    return this.entries.filter((entry) => entry.status === 'uploading').length;
  }

  private pump(): void {
    const now = Date.now();
    let earliestWait = Number.POSITIVE_INFINITY;
    for (const entry of this.entries) {
      if (this.running() >= this.concurrency) break;
      if (entry.status !== 'queued') continue;
      const job = this.jobs.get(entry.id);
      if (!job?.file) continue;
      if (job.notBefore > now) {
        earliestWait = Math.min(earliestWait, job.notBefore - now);
        continue;
      }
      this.start(entry, job, job.file);
    }
    if (Number.isFinite(earliestWait) && !this.wakeTimer) {
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = null;
        this.pump();
      }, earliestWait);
    }
    this.updateSpeedTimer();
  }

  private start(entry: UploadEntry, job: Job, file: File): void {
    const controller = new AbortController();
    job.controller = controller;
    // A resumed upload keeps its bar where it was until the server says its offset.
    const loaded = job.resumeKey ? entry.loaded : 0;
    job.sample = { at: Date.now(), loaded };
    this.update(entry.id, { status: 'uploading', loaded, speed: null, remainingSeconds: null, reconnecting: false });
    const live = () => !controller.signal.aborted && this.find(entry.id)?.status === 'uploading';
    const onProgress = (loaded: number) => {
      if (!live()) return;
      const current = this.find(entry.id);
      if (current && (loaded !== current.loaded || current.reconnecting)) {
        this.update(entry.id, { loaded: Math.min(loaded, current.size), reconnecting: false });
        // Bytes went back (a chunk lost with the connection): measure speed from here.
        if (job.sample && loaded < job.sample.loaded) job.sample = { at: Date.now(), loaded };
      }
    };
    const onReconnecting = (reconnecting: boolean) => {
      if (live() && this.find(entry.id)?.reconnecting !== reconnecting) {
        this.update(entry.id, reconnecting ? { reconnecting, speed: null, remainingSeconds: null } : { reconnecting });
      }
    };
    const onResumeKey = (resumeKey: string) => {
      if (!controller.signal.aborted) job.resumeKey = resumeKey;
    };
    this.options
      .transport(file, entry.folderId, {
        onProgress,
        signal: controller.signal,
        onReconnecting,
        onResumeKey,
        resumeKey: job.resumeKey,
        conflict: job.conflict,
      })
      .then(
        (result) => {
          if (live()) this.succeed(entry.id, result);
        },
        (error: unknown) => {
          if (live()) this.fail(entry.id, error);
        },
      );
  }

  /** Only for the transfer still in charge of the row (not one cancelled or paused meanwhile). */
  private succeed(id: string, result: Result): void {
    const current = this.find(id);
    if (!current) return;
    const entry = this.update(id, { status: 'success', loaded: current.size, remainingSeconds: 0 });
    if (!entry) return;
    this.jobs.delete(id);
    this.removalTimers.set(
      id,
      setTimeout(() => this.remove(id), COMPLETED_ROW_MS),
    );
    this.settle(entry, 'succeeded');
    this.options.onUploaded?.(result, entry);
    this.pump();
  }

  /** Only for the transfer still in charge of the row (not one cancelled or paused meanwhile). */
  private fail(id: string, error: unknown): void {
    const entry = this.find(id);
    if (!entry) return;
    const job = this.jobs.get(id);
    if (error instanceof UploadFailure && error.status === 429 && job && job.busyRetries < BUSY_RETRIES) {
      job.busyRetries += 1;
      job.notBefore = Date.now() + BUSY_RETRY_MS;
      job.controller = null;
      this.update(id, { status: 'queued', loaded: 0, speed: null, remainingSeconds: null, reconnecting: false });
      this.pump();
      return;
    }
    if (error instanceof UploadFailure && error.code === 'NAME_TAKEN' && job?.conflict === 'fail' && this.options.onNameTaken) {
      this.askAboutName(id, job, this.options.onNameTaken);
      return;
    }
    const message = error instanceof UploadFailure ? (error.serverMessage ?? null) : null;
    const failed = this.update(id, { status: 'error', error: message, speed: null, remainingSeconds: null, reconnecting: false });
    if (job) job.controller = null;
    if (failed) {
      this.settle(failed, 'failed');
      this.options.onFailed?.(failed);
    }
    this.pump();
  }

  /** Holds the row while the person chooses, then sends it again with the choice, or skips it. */
  private askAboutName(id: string, job: Job, ask: (entry: UploadEntry) => Promise<NameConflict | null>): void {
    job.controller = null;
    job.resumeKey = null;
    job.notBefore = Number.POSITIVE_INFINITY;
    const held = this.update(id, { status: 'queued', loaded: 0, speed: null, remainingSeconds: null, reconnecting: false });
    this.pump();
    if (!held) return;
    void ask(held).then((choice) => {
      if (this.jobs.get(id) !== job) return; // Cancelled meanwhile.
      if (choice === null) {
        this.cancel(id);
        return;
      }
      job.conflict = choice;
      job.notBefore = 0;
      this.pump();
    });
  }

  private settle(entry: UploadEntry, outcome: 'succeeded' | 'failed' | 'cancelled'): void {
    const batch = this.batches.get(entry.batchId);
    if (!batch) return;
    batch[outcome] += 1;
    if (batch.succeeded + batch.failed + batch.cancelled < batch.total) return;
    this.batches.delete(entry.batchId);
    if (batch.succeeded + batch.failed > 0) {
      this.options.onBatchSettled?.({ batchId: entry.batchId, succeeded: batch.succeeded, failed: batch.failed });
    }
  }

  private updateSpeedTimer(): void {
    const uploading = this.running() > 0;
    if (uploading && !this.speedTimer) {
      this.speedTimer = setInterval(() => {
        this.refreshSpeeds();
        if (this.running() === 0 && this.speedTimer) {
          clearInterval(this.speedTimer);
          this.speedTimer = null;
        }
      }, SPEED_REFRESH_MS);
    }
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
