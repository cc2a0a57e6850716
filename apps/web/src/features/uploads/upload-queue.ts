/**
 * The upload queue: the browser's side of docs/product.md#uploads. Files wait in order
 * and at most `concurrency` of them travel at once; each can be cancelled. It knows no
 * HTTP (the transport is given) and no React (components subscribe to snapshots).
 */

export type UploadStatus = 'queued' | 'uploading' | 'success' | 'error';

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
}

/** A refused or failed upload: `message` is the server's text when it sent one. */
export class UploadFailure extends Error {
  override readonly name = 'UploadFailure';

  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
  ) {
    super(serverMessage ?? `Upload failed with status ${status}`);
  }
}

export type UploadTransport<Result> = (
  file: File,
  folderId: string | null,
  options: { onProgress: (loaded: number) => void; signal: AbortSignal },
) => Promise<Result>;

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
}

/** docs/product.md#uploads: a completed row stays this long. */
export const COMPLETED_ROW_MS = 3000;
/** docs/product.md#uploads: speed and remaining time refresh this often. */
export const SPEED_REFRESH_MS = 1000;
/** The server said "too many at once" (another tab is uploading): try again after a pause. */
const BUSY_RETRY_MS = 1500;
const BUSY_RETRIES = 5;

interface Job {
  file: File;
  controller: AbortController | null;
  busyRetries: number;
  /** Not started again before this time (after a 429). */
  notBefore: number;
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

  /** True while a file waits or travels. */
  get busy(): boolean {
    return this.entries.some((entry) => entry.status === 'queued' || entry.status === 'uploading');
  }

  // --- Commands ---------------------------------------------------------------------------

  /** Queues files (each into its folder); returns the batch id of their summary. */
  add(items: ReadonlyArray<{ file: File; folderId: string | null }>): string {
    const batchId = nextId('batch');
    if (items.length === 0) return batchId;
    this.batches.set(batchId, { total: items.length, succeeded: 0, failed: 0, cancelled: 0 });
    const added = items.map(({ file, folderId }): UploadEntry => {
      const id = nextId('upload');
      this.jobs.set(id, { file, controller: null, busyRetries: 0, notBefore: 0, sample: null });
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
      };
    });
    this.entries = [...this.entries, ...added];
    this.emit();
    this.pump();
    return batchId;
  }

  /** Stops a waiting or running upload and drops its row; it counts neither way. */
  cancel(id: string): void {
    const entry = this.find(id);
    if (!entry) return;
    if (entry.status === 'queued' || entry.status === 'uploading') {
      this.jobs.get(id)?.controller?.abort();
      this.settle(entry, 'cancelled');
    }
    this.remove(id);
    this.pump();
  }

  /** Drops a finished (failed or completed) row. */
  dismiss(id: string): void {
    const entry = this.find(id);
    if (!entry || entry.status === 'queued' || entry.status === 'uploading') return;
    this.remove(id);
  }

  /** The panel's close button: cancels everything still going and empties the list. */
  clear(): void {
    for (const entry of [...this.entries]) {
      if (entry.status === 'queued' || entry.status === 'uploading') {
        this.jobs.get(entry.id)?.controller?.abort();
        this.settle(entry, 'cancelled');
      }
      this.remove(entry.id, false);
    }
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
      if (entry.status !== 'uploading' || !job?.sample) return entry;
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
      if (!job) continue;
      if (job.notBefore > now) {
        earliestWait = Math.min(earliestWait, job.notBefore - now);
        continue;
      }
      this.start(entry, job);
    }
    if (Number.isFinite(earliestWait) && !this.wakeTimer) {
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = null;
        this.pump();
      }, earliestWait);
    }
    this.updateSpeedTimer();
  }

  private start(entry: UploadEntry, job: Job): void {
    const controller = new AbortController();
    job.controller = controller;
    job.sample = { at: Date.now(), loaded: 0 };
    this.update(entry.id, { status: 'uploading', loaded: 0, speed: null, remainingSeconds: null });
    const onProgress = (loaded: number) => {
      if (controller.signal.aborted) return;
      const current = this.find(entry.id);
      if (current && loaded !== current.loaded) this.update(entry.id, { loaded: Math.min(loaded, current.size) });
    };
    this.options
      .transport(job.file, entry.folderId, { onProgress, signal: controller.signal })
      .then(
        (result) => this.succeed(entry.id, result),
        (error: unknown) => this.fail(entry.id, error, controller.signal.aborted),
      );
  }

  private succeed(id: string, result: Result): void {
    const current = this.find(id);
    // Cancelled while the answer was on its way: the row is gone and counted as cancelled.
    if (!current || current.status !== 'uploading') return;
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

  private fail(id: string, error: unknown, aborted: boolean): void {
    const entry = this.find(id);
    // A cancelled upload's row is already gone.
    if (aborted || !entry || entry.status !== 'uploading') return;
    const job = this.jobs.get(id);
    if (error instanceof UploadFailure && error.status === 429 && job && job.busyRetries < BUSY_RETRIES) {
      job.busyRetries += 1;
      job.notBefore = Date.now() + BUSY_RETRY_MS;
      job.controller = null;
      this.update(id, { status: 'queued', loaded: 0, speed: null, remainingSeconds: null });
      this.pump();
      return;
    }
    const message = error instanceof UploadFailure ? (error.serverMessage ?? null) : null;
    const failed = this.update(id, { status: 'error', error: message, speed: null, remainingSeconds: null });
    this.jobs.delete(id);
    if (failed) {
      this.settle(failed, 'failed');
      this.options.onFailed?.(failed);
    }
    this.pump();
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
