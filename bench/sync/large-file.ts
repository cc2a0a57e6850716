import { execFile } from 'node:child_process';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createFolder, upload } from '../lib/cloudvault-api.ts';
import { writeRandomFile } from '../lib/fixtures.ts';
import { syncDisks } from '../lib/processes.ts';
import { formatMiB, mbPerSecond } from '../lib/stats.ts';
import { interleave } from '../scenarios/scenario.ts';
import { expectSuccess, syncOnce } from './cloudvault-cli.ts';
import { timed } from './where-time-goes.ts';
import { figureOf, highest, ratioTarget, type SyncContext, type SyncResult } from './sync-scenario.ts';

const CLIENT = 'cloudvault sync --once';
const MULTIPART = 'multipart POST /api/files/upload';
const CURL = 'curl GET /api/files/:id/download + fsync';
const NODE_FLOOR = 'node: GET + write + fsync, no hash';
const NODE_FLOOR_SCRIPT = fileURLToPath(new URL('./node-download-floor.mjs', import.meta.url));
const NAME = 'large.bin';

/**
 * One large file (issue 39: 1 GiB) up and down: the client's pass against the browser's way
 * (one multipart POST, timed from request to answer by the bench's HTTP client) and, down,
 * against curl writing the same file to disk. The client's time is its process's wall time.
 */
export async function largeFile(ctx: SyncContext): Promise<SyncResult[]> {
  const { config } = ctx;
  const size = config.largeFileBytes;
  const sourceDir = path.join(ctx.root, 'large-source');
  await mkdir(sourceDir, { recursive: true });
  const source = path.join(sourceDir, NAME);
  await writeRandomFile(source, size);
  // Each direction's own peak: a buffer that grows with the file shows on the side that keeps it.
  const spent = { up: [] as string[], down: [] as string[] };
  const peaks = { up: [] as (number | null)[], down: [] as (number | null)[] };
  const multipartFileIds: string[] = [];
  ctx.log(`sync: upload of one ${formatMiB(size)} file, ${config.largeRounds} round(s)`);
  const uploads = await interleave<number, string>(config.largeRounds, [
    {
      server: CLIENT,
      run: async (round) => {
        await syncDisks();
        const { run, breakdown } = await timed(ctx.server.pid, () =>
          syncOnce(ctx.device, sourceDir, `/large-client-${round}`, config.commandTimeoutMs),
        );
        expectSuccess(run, 'upload');
        spent.up.push(`round ${round}: ${breakdown}`);
        peaks.up.push(run.peakRssBytes);
        return mbPerSecond(size, run.ms);
      },
    },
    {
      server: MULTIPART,
      run: async (round) => {
        // A folder per round, as the client's: the same name twice in one folder would be refused.
        const folderId = await createFolder(ctx.client, `large-multipart-${round}`);
        await syncDisks();
        const stored = await upload(ctx.client, source, size, NAME, folderId);
        multipartFileIds.push(stored.id);
        return mbPerSecond(size, stored.ms);
      },
    },
  ]);
  const fileId = multipartFileIds[0];
  const downloadDir = (who: string, round: number) => path.join(ctx.root, `large-down-${who}-${round}`);
  const checkSize = async (file: string) => {
    const { size: got } = await stat(file);
    if (got !== size) throw new Error(`${file}: ${got} bytes of ${size}`);
  };
  const curlRaw: number[] = [];
  const curl = async (round: number) => {
    if (!fileId) throw new Error('the multipart upload stored no file to download');
    const dir = downloadDir('curl', round);
    await mkdir(dir, { recursive: true });
    const started = performance.now();
    await promisify(execFile)('curl', [
      '--silent',
      '--show-error',
      '--fail',
      '--header',
      `Authorization: Bearer ${ctx.client.token}`,
      '--output',
      path.join(dir, NAME),
      `${ctx.server.url}/api/files/${fileId}/download`,
    ]);
    const rawMs = performance.now() - started;
    // The client flushes what it downloaded before placing it (crash safety); curl does not, so its time runs on to an fsync.
    const written = await open(path.join(dir, NAME), 'r');
    await written.sync();
    await written.close();
    const durableMs = performance.now() - started;
    await checkSize(path.join(dir, NAME));
    await rm(dir, { recursive: true, force: true });
    if (round > 0) curlRaw.push(mbPerSecond(size, rawMs));
    return mbPerSecond(size, durableMs);
  };
  // The same download by the least a Node process can do (node-download-floor.mjs), timed as the client is: its process's wall time.
  const nodeFloor = async (round: number) => {
    const dir = downloadDir('node', round);
    await mkdir(dir, { recursive: true });
    const started = performance.now();
    await promisify(execFile)(process.execPath, [
      NODE_FLOOR_SCRIPT,
      `${ctx.server.url}/api/files/${fileId}/download`,
      ctx.client.token,
      path.join(dir, NAME),
    ]);
    const ms = performance.now() - started;
    await checkSize(path.join(dir, NAME));
    await rm(dir, { recursive: true, force: true });
    return mbPerSecond(size, ms);
  };
  ctx.log(`sync: download of the ${formatMiB(size)} file, ${config.largeRounds} round(s)`);
  // One untimed read first, so both read the blob (stored past the page cache) from the cache.
  await curl(0).catch(() => undefined);
  const downloads = await interleave<number, string>(config.largeRounds, [
    {
      server: CLIENT,
      run: async (round) => {
        if (!fileId) throw new Error('the multipart upload stored no file to download');
        const dir = downloadDir('client', round);
        await mkdir(dir, { recursive: true });
        await syncDisks();
        const { run, breakdown } = await timed(ctx.server.pid, () =>
          syncOnce(ctx.device, dir, '/large-multipart-1', config.commandTimeoutMs),
        );
        expectSuccess(run, 'download');
        spent.down.push(`round ${round}: ${breakdown}`);
        peaks.down.push(run.peakRssBytes);
        await checkSize(path.join(dir, NAME));
        await rm(dir, { recursive: true, force: true });
        return mbPerSecond(size, run.ms);
      },
    },
    {
      server: CURL,
      run: async (round) => {
        await syncDisks();
        return curl(round);
      },
    },
    {
      server: NODE_FLOOR,
      run: async (round) => {
        await syncDisks();
        return nodeFloor(round);
      },
    },
  ]);
  const ours = (outcomes: typeof uploads, direction: 'up' | 'down') =>
    figureOf(CLIENT, 'MB/s', outcomes.get(CLIENT), highest(peaks[direction]));
  const up = { ours: ours(uploads, 'up'), ceiling: figureOf(MULTIPART, 'MB/s', uploads.get(MULTIPART)) };
  const down = {
    ours: ours(downloads, 'down'),
    ceiling: figureOf(CURL, 'MB/s', downloads.get(CURL)),
    floor: figureOf(NODE_FLOOR, 'MB/s', downloads.get(NODE_FLOOR)),
  };
  const floorRatio =
    down.floor.value !== undefined && down.ceiling.value ? `${(down.floor.value / down.ceiling.value).toFixed(2)} ×` : 'not measured';
  const label = formatMiB(size);
  return [
    {
      id: 'sync-large-upload',
      title: `Upload of one ${label} file`,
      figures: [up.ours, up.ceiling],
      targets: [ratioTarget(`Upload of one ${label} file`, up.ours, up.ceiling, 0.8)],
      notes: [
        `The client's time: ${spent.up.join('; ') || 'not measured'}.`,
        'The client: wall time of its whole process (start-up, token exchange, listing, hashing the file, the transfer); multipart: the request alone. Each round after a `sync`.',
      ],
    },
    {
      id: 'sync-large-download',
      title: `Download of one ${label} file`,
      figures: [down.ours, down.ceiling, down.floor],
      targets: [ratioTarget(`Download of one ${label} file`, down.ours, down.ceiling, 0.8)],
      notes: [
        `The client's time: ${spent.down.join('; ') || 'not measured'}.`,
        `The least a Node process can do (${NODE_FLOOR}, bench/sync/node-download-floor.mjs, its wall time from start to exit) reaches ${floorRatio} of curl's speed: the client's ratio cannot pass it.`,
        `Both write the file to disk in the same file system; the client checks its hash and flushes it before the rename, so curl's time runs on to an fsync of its file (curl alone: ${curlRaw.map((speed) => speed.toFixed(0)).join(', ')} MB/s). One untimed curl first warms the page cache for both.`,
      ],
    },
  ];
}
