import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import Database from 'better-sqlite3';
import { naturalSortKey } from '@cloudvault/contract/sort-keys';
import { nameKey } from '@cloudvault/contract/validation';
import { localFilesAt } from '../../apps/server/src/adapters/blob-store/local-blob-store.ts';
import { createFolder, upload } from '../lib/cloudvault-api.ts';
import { writeRandomFile } from '../lib/fixtures.ts';
import { request } from '../lib/http-client.ts';
import { syncDisks } from '../lib/processes.ts';
import { median } from '../lib/stats.ts';
import { interleave, type ScenarioContext, type ScenarioResult } from './scenario.ts';

const run = promisify(execFile);
const newId = () => randomBytes(16).toString('base64url');

/**
 * 1 GiB in four files: our copy may take at most 1.5 × the ceiling's time. Both copy in
 * the kernel (copy_file_range on ext4; a reflink where the file system has them) and both
 * wait for the bytes to reach the disk (ours fsyncs each blob, the ceiling syncs the file
 * system), so the bytes cost the same; the half on top is for what only ours does, a few
 * milliseconds in all (the request, the tree's queries, the rows' one transaction), and for
 * the shared machine's noise between rounds.
 */
const LARGE_CEILING = 1.5;
/**
 * 10,000 small files: at most 10 × the ceiling's time. The bytes are nothing (40 MB); the
 * time is per file, and ours does per file what `cp` does not: an fsync of each blob before
 * its row is listed (docs/decisions/0021-crash-safe-storage.md; 8 at once, so a journal
 * commit covers a few of them, where the ceiling's one syncfs covers all 10,000), a rename
 * into its shard, and a row read from the tree's pages and inserted by the one listing
 * transaction (500 rows a statement, with name and sort keys and an index per listing
 * order). About 10,000 fsyncs at 1-2 ms each, 8 at once, against one syncfs is most of
 * the gap; first figures (bench/README.md) were 2.6 × by the medians, single rounds from
 * 1.8 × to 12.5 ×, on a machine at a load of 21. 10 × keeps a copy that went a query or an fsync per
 * file slower than this visible. (An fsync per copied file on the ceiling's side, coreutils
 * `sync FILE…`, took three times as long as ours: a sequential fsync is the slowest durable
 * copy, not a ceiling.)
 */
const SMALL_CEILING = 10;

interface CopySource {
  /** The folder of our server holding the files. */
  folderId: string;
  /** The same files, on the same disk, for `cp -r`. */
  dir: string;
  files: number;
  bytes: number;
}

/**
 * `count` files of `size` random bytes, written into `dir` for `cp -r` and, with the same
 * bytes, as blobs in the server's local store with their rows inserted straight into
 * SQLite (as scenarios/listing.ts does): 10,000 uploads would take minutes of fsyncs and
 * measure uploads, not the copy. Each row is what an upload writes (sha256, CRC32, name
 * and sort keys as the app computes them), and storage_used counts them.
 */
async function smallFilesSource(ctx: ScenarioContext, root: string, count: number, size: number): Promise<CopySource> {
  const folderId = await createFolder(ctx.client, 'copy-bench-small');
  const dir = path.join(root, 'copy-small');
  await mkdir(dir, { recursive: true });
  const blobs = localFilesAt(path.join(ctx.ours.dataDir, 'blobs'));
  const rows: unknown[][] = [];
  const now = new Date().toISOString();
  const bytes = Buffer.allocUnsafe(size);
  for (let index = 1; index <= count; index++) {
    randomFillSync(bytes);
    const name = `note ${index}.txt`;
    const blobKey = newId();
    await writeFile(path.join(dir, name), bytes);
    await mkdir(path.dirname(blobs.pathOf(blobKey)), { recursive: true });
    await writeFile(blobs.pathOf(blobKey), bytes);
    rows.push([
      newId(),
      ctx.client.userId,
      folderId,
      name,
      nameKey(name),
      naturalSortKey(name),
      size,
      createHash('sha256').update(bytes).digest('hex'),
      crc32(bytes),
      blobKey,
      now,
      now,
    ]);
  }
  const db = new Database(path.join(ctx.ours.dataDir, 'cloudvault.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare(
      `INSERT INTO files (id, user_id, folder_id, name, name_key, sort_key, mimetype, category, size, sha256, crc32, blob_key, created_at, updated_at, deleted_at, trashed_root)
       VALUES (?, ?, ?, ?, ?, ?, 'text/plain', 'document', ?, ?, ?, ?, ?, ?, NULL, 0)`,
    );
    db.transaction(() => {
      for (const row of rows) insert.run(...row);
      db.prepare('UPDATE users SET storage_used = storage_used + ? WHERE id = ?').run(count * size, ctx.client.userId);
    })();
  } finally {
    db.close();
  }
  return { folderId, dir, files: count, bytes: count * size };
}

/** `count` files of `size` random bytes, written to disk by a stream and uploaded through the API (multipart, as a browser does). */
async function largeFilesSource(ctx: ScenarioContext, root: string, count: number, size: number): Promise<CopySource> {
  const folderId = await createFolder(ctx.client, 'copy-bench-large');
  const dir = path.join(root, 'copy-large');
  await mkdir(dir, { recursive: true });
  for (let index = 1; index <= count; index++) {
    const file = path.join(dir, `part-${index}.bin`);
    await writeRandomFile(file, size);
    await upload(ctx.client, file, size, `part-${index}.bin`, folderId);
  }
  return { folderId, dir, files: count, bytes: count * size };
}

/** Our copy of the folder into the root, timed from the request to the answer (the copy is listed, every blob fsynced). */
async function copyThroughTheApi(ctx: ScenarioContext, folderId: string): Promise<{ seconds: number; copyId: string }> {
  const payload = Buffer.from(JSON.stringify({ parentId: null }));
  const started = performance.now();
  const answer = await request(`${ctx.client.url}/api/user/folders/${folderId}/copy`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.client.token}`, 'content-type': 'application/json', 'content-length': payload.length },
    body: () => Readable.from(payload),
    keepText: true,
    idleTimeoutMs: ctx.config.idleTimeoutMs,
  });
  const seconds = (performance.now() - started) / 1000;
  if (answer.status !== 201) throw new Error(`POST /api/user/folders/:id/copy answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return { seconds, copyId: JSON.parse(answer.text).folder.id };
}

/** That the copy lists every file with its size: a copy that skipped some would look fast. */
async function checkCopy(ctx: ScenarioContext, copyId: string, source: CopySource): Promise<void> {
  const listed = await request(`${ctx.client.url}/api/files?folderId=${copyId}`, {
    headers: { authorization: `Bearer ${ctx.client.token}` },
    keepText: true,
    idleTimeoutMs: ctx.config.idleTimeoutMs,
  });
  const files = JSON.parse(listed.text).files as { size: number }[];
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  if (files.length !== source.files || bytes !== source.bytes)
    throw new Error(`the copy lists ${files.length} files of ${bytes} bytes, not ${source.files} of ${source.bytes}`);
}

/**
 * The ceiling: `cp -r` of the same files on the same disk, then `sync -f` (syncfs of that
 * file system), since ours answers only once every blob is fsynced. Answers both times: cp
 * alone, and with the sync (the figure compared).
 */
async function copyWithCp(source: CopySource, target: string): Promise<{ seconds: number; cpSeconds: number }> {
  const started = performance.now();
  await run('cp', ['-r', source.dir, target]);
  const copied = performance.now();
  await run('sync', ['-f', target]);
  return { seconds: (performance.now() - started) / 1000, cpSeconds: (copied - started) / 1000 };
}

/** Our copy and `cp -r` of one source, rounds interleaved, each after a `sync` so neither pays for the other's write-back. */
async function timeCopies(
  ctx: ScenarioContext,
  root: string,
  source: CopySource,
  scenario: { id: string; title: string; ceiling: number; setUpSeconds: number; setUp: string },
): Promise<ScenarioResult> {
  const cpOnly: number[] = [];
  const copies: string[] = [];
  const outcomes = await interleave<number, 'ours' | 'cp -r'>(ctx.config.copyRounds, [
    {
      server: 'ours',
      run: async () => {
        await syncDisks();
        const { seconds, copyId } = await copyThroughTheApi(ctx, source.folderId);
        // Checked once: listing 10,000 files again every round would only slow the run.
        if (copies.length === 0) await checkCopy(ctx, copyId, source);
        copies.push(copyId);
        return seconds;
      },
    },
    {
      server: 'cp -r',
      run: async (round) => {
        await syncDisks();
        const target = path.join(root, `${scenario.id}-cp-${round}`);
        const { seconds, cpSeconds } = await copyWithCp(source, target);
        cpOnly.push(cpSeconds);
        // Removed at once, so the disk holds no more than the server's copies.
        await rm(target, { recursive: true, force: true });
        return seconds;
      },
    },
  ]);
  const ours = outcomes.get('ours')!;
  const cp = outcomes.get('cp -r')!;
  const mb = source.bytes / 1e6;
  const measured = ours.status === 'measured' && cp.status === 'measured';
  const ratio = measured ? median(ours.samples) / median(cp.samples) : Number.NaN;
  const seconds = (samples: number[]) => samples.map((value) => value.toFixed(2)).join(', ');
  return {
    id: scenario.id,
    title: scenario.title,
    compares: 'mbPerSecond',
    figures: [...outcomes].map(([server, outcome]) => ({
      server,
      status: outcome.status,
      note: outcome.note,
      samples: outcome.samples.map((value) => mb / value),
      mbPerSecond: outcome.samples.length > 0 ? mb / median(outcome.samples) : undefined,
    })),
    notes: [
      scenario.setUp,
      `Set-up took ${scenario.setUpSeconds.toFixed(1)} s. ${ctx.config.copyRounds} round(s), ours and cp taking turns, each after a sync.`,
      `Seconds per round: ours ${seconds(ours.samples)}; cp -r and sync -f ${seconds(cp.samples)}; cp -r alone ${seconds(cpOnly)}.`,
      'ours: POST /api/user/folders/:id/copy, from the request to the 201 (every blob fsynced and every row listed). cp -r: the same files on the same disk, then sync -f (syncfs of the file system, which also flushes whatever else wrote to it meanwhile).',
    ],
    targets: [
      {
        description: `${scenario.title}: at most ${scenario.ceiling} × cp -r (then sync -f) in time`,
        measured: measured
          ? `${ratio.toFixed(2)} × (ours ${median(ours.samples).toFixed(2)} s, cp -r ${median(cp.samples).toFixed(2)} s, medians)`
          : `not measured: ${ours.note ?? cp.note}`,
        met: ratio <= scenario.ceiling,
      },
    ],
  };
}

/** Issue 36: a copy of a folder of 10,000 small files, against `cp -r` of the same files. */
export async function smallFilesCopy(ctx: ScenarioContext, root: string): Promise<ScenarioResult> {
  const { copySmallFileCount: count, copySmallFileBytes: size } = ctx.config;
  const started = performance.now();
  const source = await smallFilesSource(ctx, root, count, size);
  await syncDisks();
  return timeCopies(ctx, root, source, {
    id: 'folder-copy-small',
    title: `Copy of a folder of ${count.toLocaleString('en')} files of ${size / 1024} KiB`,
    ceiling: SMALL_CEILING,
    setUpSeconds: (performance.now() - started) / 1000,
    setUp: `The ${count.toLocaleString('en')} files were written as blobs into the server's store and their rows inserted into SQLite (sha256, CRC32, keys as an upload writes them), not uploaded.`,
  });
}

/** Issue 36: a copy of a folder holding 1 GiB in four files, against `cp -r` of the same files. */
export async function largeFilesCopy(ctx: ScenarioContext, root: string): Promise<ScenarioResult> {
  const { copyLargeFileCount: count, copyLargeFileBytes: size } = ctx.config;
  const started = performance.now();
  const source = await largeFilesSource(ctx, root, count, size);
  await syncDisks();
  return timeCopies(ctx, root, source, {
    id: 'folder-copy-large',
    title: `Copy of a folder of ${count} files of ${size / 1024 ** 2} MiB`,
    ceiling: LARGE_CEILING,
    setUpSeconds: (performance.now() - started) / 1000,
    setUp: `The ${count} files of random bytes were written to disk by a stream and uploaded through the API.`,
  });
}
