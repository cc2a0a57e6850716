/**
 * Moving file content both ways, in parallel: small files many to a request (one request per
 * batch instead of one per file), large ones through resumable transfers (tus up, Range down).
 * Each finished file is reported at once through `onDone`, so the engine records it in the
 * journal before the next one ends; a run killed mid-way redoes only what was not reported.
 */
import type { ApiClient } from './api-client.ts';
import { downloadBatch, downloadLarge, type DownloadFile, type DownloadOutcome } from './download-files.ts';
import { RemoteError } from './remote-error.ts';
import { tusUpload } from './tus-upload.ts';
import { uploadBatch, type UploadFile, type UploadOutcome } from './upload-batch.ts';

export type { DownloadFile, DownloadOutcome } from './download-files.ts';
export type { NameConflict, UploadFile, UploadOutcome } from './upload-batch.ts';

/** How transfers are grouped and how many run at once. */
export interface TransferTuning {
  /** Files smaller than this go in batches; the others alone, resumable. */
  smallFileBytes: number;
  batchFiles: number;
  batchBytes: number;
  /** Batch requests in flight at once. */
  parallelBatches: number;
  /** Large files in flight at once. */
  parallelLarge: number;
}

export const DEFAULT_TUNING: TransferTuning = {
  smallFileBytes: 4 * 1024 * 1024,
  batchFiles: 200,
  batchBytes: 16 * 1024 * 1024,
  // Three transfers at once: the Free plan's uploads at once (more would wait on 429 TOO_MANY_UPLOADS).
  parallelBatches: 2,
  parallelLarge: 1,
};

export interface TransferCallbacks<Outcome> {
  /** Bytes moved since the last call (for the progress line). */
  onProgress?: (bytes: number) => void;
  /** One file is finished (index into the items given). */
  onDone?: (index: number, outcome: Outcome) => void;
}

export interface UploadCallbacks extends TransferCallbacks<UploadOutcome> {
  /** A large file's tus upload URL, as soon as it exists: keep it (journal `transfers.tus_url`) to resume after a crash. */
  onUploadUrl?: (index: number, url: string) => void;
}

/** Groups item indexes into batches of small items (by count and bytes) and singles of large ones. */
function group(sizes: number[], tuning: TransferTuning): { batches: number[][]; large: number[] } {
  const batches: number[][] = [];
  const large: number[] = [];
  let current: number[] = [];
  let bytes = 0;
  sizes.forEach((size, index) => {
    if (size >= tuning.smallFileBytes) {
      large.push(index);
      return;
    }
    if (current.length >= tuning.batchFiles || (current.length > 0 && bytes + size > tuning.batchBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(index);
    bytes += size;
  });
  if (current.length > 0) batches.push(current);
  return { batches, large };
}

/** Runs `work` over `tasks`, at most `limit` at once. */
async function pool<T>(tasks: T[], limit: number, work: (task: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await work(tasks[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

const asRemoteError = (error: unknown) => (error instanceof RemoteError ? error : new RemoteError(0, 'NETWORK', (error as Error).message));

/** How one direction moves a batch of small items and one large item; `done` reports an item's outcome. */
interface GroupWork<Outcome> {
  batch(indexes: number[], done: (index: number, outcome: Outcome) => void, outcomes: readonly (Outcome | undefined)[]): Promise<void>;
  large(index: number, done: (index: number, outcome: Outcome) => void): Promise<void>;
}

/**
 * The frame both directions share: items grouped by size, batches and large items run side
 * by side within the tuning's limits, each outcome kept in order and reported at once.
 */
async function transferInGroups<Outcome>(
  sizes: number[],
  callbacks: TransferCallbacks<Outcome>,
  tuning: TransferTuning,
  work: GroupWork<Outcome>,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(sizes.length);
  const done = (index: number, outcome: Outcome) => {
    outcomes[index] = outcome;
    callbacks.onDone?.(index, outcome);
  };
  const { batches, large } = group(sizes, tuning);
  await Promise.all([
    pool(batches, tuning.parallelBatches, (batch) => work.batch(batch, done, outcomes)),
    pool(large, tuning.parallelLarge, (index) => work.large(index, done)),
  ]);
  return outcomes;
}

/**
 * Uploads `items` and answers one outcome per item, in order. Small files go in batches
 * through POST /api/sync/uploads (several in flight), large ones through tus, resumed from
 * `resumeUrl` when an earlier run began them.
 */
export async function uploadFiles(
  api: ApiClient,
  items: UploadFile[],
  callbacks: UploadCallbacks = {},
  tuning: TransferTuning = DEFAULT_TUNING,
): Promise<UploadOutcome[]> {
  const onBytes = (bytes: number) => callbacks.onProgress?.(bytes);
  return transferInGroups(
    items.map((item) => item.size),
    callbacks,
    tuning,
    {
      batch: async (batch, done) => {
        const answers = await uploadBatch(
          api,
          batch.map((index) => items[index] as UploadFile),
          onBytes,
        );
        answers.forEach((outcome, position) => done(batch[position] as number, outcome));
      },
      large: async (index, done) => {
        const item = items[index] as UploadFile;
        try {
          const { id } = await tusUpload(api, item, (url) => callbacks.onUploadUrl?.(index, url), onBytes);
          done(index, { file: { id, originalName: item.name, folderId: item.folderId, size: item.size, contentHash: item.hash } });
        } catch (error) {
          done(index, { error: asRemoteError(error) });
        }
      },
    },
  );
}

/** A batch download cut part-way is asked again for the files not yet done, until this many attempts in a row bring none. */
const BATCH_ATTEMPTS_WITHOUT_PROGRESS = 4;

/**
 * Downloads `items` to their temp paths and answers one outcome per item, in order. Small files
 * come in batches through POST /api/sync/downloads (a batch cut part-way is asked again for
 * the rest), large ones through ranged GETs that resume from what the temp file holds.
 */
export async function downloadFiles(
  api: ApiClient,
  items: DownloadFile[],
  callbacks: TransferCallbacks<DownloadOutcome> = {},
  tuning: TransferTuning = DEFAULT_TUNING,
): Promise<DownloadOutcome[]> {
  const onBytes = (bytes: number) => callbacks.onProgress?.(bytes);
  return transferInGroups(
    items.map((item) => item.size),
    callbacks,
    tuning,
    {
      batch: async (batch, done, outcomes) => {
        const pending = () => batch.filter((index) => outcomes[index] === undefined);
        for (let stalled = 0; pending().length > 0;) {
          const asked = pending();
          let failure = new RemoteError(0, 'NO_RESULT', 'The server sent no result for this file');
          try {
            await downloadBatch(
              api,
              asked.map((index) => items[index] as DownloadFile),
              onBytes,
              (position, outcome) => done(asked[position] as number, outcome),
            );
          } catch (error) {
            failure = asRemoteError(error);
            stalled = pending().length < asked.length ? 0 : stalled + 1;
            if (stalled < BATCH_ATTEMPTS_WITHOUT_PROGRESS && (failure.status === 0 || failure.status >= 500)) continue;
          }
          for (const index of pending()) done(index, { error: failure });
        }
      },
      large: async (index, done) => done(index, await downloadLarge(api, items[index] as DownloadFile, onBytes)),
    },
  );
}
