import { createFolder, download, storeZipsUncompressed, upload } from '../lib/cloudvault-api.ts';
import { type Download, fastGet } from '../lib/fast-get.ts';
import { syncDisks } from '../lib/processes.ts';
import { mbPerSecond, median } from '../lib/stats.ts';
import { interleave, type ScenarioContext, type ScenarioResult, Unavailable } from './scenario.ts';

/** Runs `task` over `items`, at most `limit` at a time. */
async function inParallel<T>(items: T[], limit: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Zips per server before any is timed: each server's first answers pay for what its later
 * ones find ready (compiled code, cached database pages, the files in the page cache),
 * as the listing's warm-up requests and the download's untimed first pass do.
 */
const ZIP_WARMUP = 5;
/**
 * Zips per server and round, their median the round's sample: one zip takes 40-60 ms, so
 * a single one per round was at the mercy of whatever else the two cores did just then.
 */
const ZIPS_PER_ROUND = 10;

/**
 * Our folder zip against the ceilings serving a pre-built stored zip of the same files.
 * The folder is filled through the upload API (so CRC32s and blobs are real); that set-up
 * time is reported as a note, as it is itself a figure of many small uploads.
 */
export async function folderZip(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { zipEntries, zip } = ctx.fixtures;
  const notes: string[] = [];
  const compression = await storeZipsUncompressed(ctx.client);
  notes.push(`ours: ${compression.why}.`);

  const folderId = await createFolder(ctx.client, 'zip-bench');
  const started = performance.now();
  await inParallel(zipEntries, ctx.config.setupConcurrency, (entry) => upload(ctx.client, entry.path, entry.size, entry.name, folderId));
  const seconds = (performance.now() - started) / 1000;
  notes.push(
    `Set-up: ${zipEntries.length} uploads into the folder took ${seconds.toFixed(1)} s (${(zipEntries.length / seconds).toFixed(0)} uploads/s, ${ctx.config.setupConcurrency} at a time).`,
  );
  await syncDisks();

  const contentBytes = zipEntries.reduce((sum, entry) => sum + entry.size, 0);
  let ourBytes: number | undefined;
  const check = (response: Download, minimumBytes: number) => {
    if ([404, 405, 501].includes(response.status)) throw new Unavailable(`GET /api/user/folders/:id/download answered ${response.status}`);
    if (response.status !== 200 || response.bytes < minimumBytes)
      throw new Error(`answered ${response.status} with ${response.bytes} bytes`);
    return mbPerSecond(response.bytes, response.ms);
  };
  const servers = [
    {
      server: 'ours' as const,
      zipOnce: async () => {
        const response = await download(ctx.client, `/api/user/folders/${folderId}/download`);
        // Stored, a zip holds every byte of its files; deflated random bytes barely shrink.
        const speed = check(response, compression.stored ? contentBytes : 1);
        ourBytes = response.bytes;
        return speed;
      },
    },
    ...ctx.ceilings.map((ceiling) => ({
      server: ceiling.name,
      zipOnce: async () => check(await fastGet(ceiling.fileUrl(zip.name), {}, ctx.config.idleTimeoutMs), zip.size),
    })),
  ];
  const zips = ctx.config.rounds > 1 ? ZIPS_PER_ROUND : 1;
  const outcomes = await interleave(
    ctx.config.rounds,
    servers.map(({ server, zipOnce }) => ({
      server,
      run: async (round: number) => {
        if (round === 1 && ctx.config.rounds > 1) for (let index = 0; index < ZIP_WARMUP; index++) await zipOnce();
        const speeds: number[] = [];
        for (let index = 0; index < zips; index++) speeds.push(await zipOnce());
        return median(speeds);
      },
    })),
  );
  notes.push(
    `Per server, ${ctx.config.rounds > 1 ? ZIP_WARMUP : 0} untimed zips first, then ${zips} per round taken in turns with the other servers; each round's sample is the median of its zips.`,
  );
  notes.push("MB/s of each server's own zip bytes; the ceilings serve a stored zip pre-built with yazl.");
  return {
    id: 'folder-zip',
    title: `Zip of a folder of ${zipEntries.length} files of ${zipEntries[0]!.size / 1024} KiB`,
    compares: 'mbPerSecond',
    figures: [...outcomes].map(([server, outcome]) => ({
      server,
      ...outcome,
      mbPerSecond: median(outcome.samples),
      bytes: server === 'ours' ? ourBytes : zip.size,
    })),
    notes,
  };
}
