import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { syncDisks } from '../lib/processes.ts';
import { interleave, Unavailable } from '../scenarios/scenario.ts';
import { expectSuccess, syncOnce } from './cloudvault-cli.ts';
import { timed } from './where-time-goes.ts';
import { figureOf, highest, ratioTarget, boundTarget, type SyncContext, type SyncResult } from './sync-scenario.ts';
import { compareTree, writeTree } from './tree.ts';

const CLIENT = 'cloudvault sync --once';
const RCLONE = 'rclone copy --transfers 8 (WebDAV)';

/**
 * 10,000 files of 4 KiB (issue 39) sent into an empty drive folder and fetched into an empty
 * local folder, by the client's one pass and by rclone over our WebDAV, rounds interleaved.
 * Each side's time is its process's wall time (start-up and sign-in included). Every copy
 * is checked byte for byte against the source before it counts.
 */
export async function smallFiles(ctx: SyncContext): Promise<SyncResult[]> {
  const { config } = ctx;
  const count = config.smallFileCount;
  ctx.log(`sync: writing ${count} files of ${config.smallFileBytes} bytes`);
  const tree = await writeTree(path.join(ctx.root, 'small-source'), count, config.smallFileBytes, config.filesPerFolder);
  const uploadedByClient = new Set<number>();
  // Each direction's own peak: a buffer that grows with the file shows on the side that keeps it.
  const spent = { up: [] as string[], down: [] as string[] };
  const peaks = { up: [] as (number | null)[], down: [] as (number | null)[] };
  const rcloneRunner = (run: (round: number) => Promise<number>) => ({
    server: RCLONE,
    run: async (round: number) => {
      if (!ctx.rclone) throw new Unavailable('rclone is not installed (apt-get install -y rclone)');
      return run(round);
    },
  });
  // Another run's dirty pages are written back before each transfer, so none pays for another's.
  ctx.log(`sync: upload of ${count} small files, ${config.smallRounds} round(s)`);
  const uploads = await interleave<number, string>(config.smallRounds, [
    {
      server: CLIENT,
      run: async (round) => {
        await syncDisks();
        const { run, breakdown } = await timed(ctx.server.pid, () =>
          syncOnce(ctx.device, tree.dir, `/small-client-${round}`, config.commandTimeoutMs),
        );
        expectSuccess(run, 'upload');
        spent.up.push(`round ${round}: ${breakdown}`);
        peaks.up.push(run.peakRssBytes);
        uploadedByClient.add(round);
        return count / (run.ms / 1000);
      },
    },
    rcloneRunner(async (round) => {
      await syncDisks();
      // The client's private area in the source (.cloudvault/) is not part of the tree.
      const ms = await ctx.rclone!.copy(tree.dir, `cloud:small-rclone-${round}`, ['--exclude', '/.cloudvault/**']);
      return count / (ms / 1000);
    }),
  ]);
  // Both fetch a folder the client sent when it could, else rclone's: the same files either way.
  const source = (round: number) => (uploadedByClient.has(round) ? `small-client-${round}` : `small-rclone-${round}`);
  const fetched = async (dir: string) => {
    const difference = await compareTree(tree, dir);
    await rm(dir, { recursive: true, force: true });
    if (difference) throw new Error(`the copy is not the tree: ${difference}`);
  };
  ctx.log(`sync: download of ${count} small files, ${config.smallRounds} round(s)`);
  const downloads = await interleave<number, string>(config.smallRounds, [
    {
      server: CLIENT,
      run: async (round) => {
        await syncDisks();
        const dir = path.join(ctx.root, `small-down-client-${round}`);
        await mkdir(dir);
        const { run, breakdown } = await timed(ctx.server.pid, () =>
          syncOnce(ctx.device, dir, `/${source(round)}`, config.commandTimeoutMs),
        );
        expectSuccess(run, 'download');
        spent.down.push(`round ${round}: ${breakdown}`);
        peaks.down.push(run.peakRssBytes);
        await fetched(dir);
        return count / (run.ms / 1000);
      },
    },
    rcloneRunner(async (round) => {
      await syncDisks();
      const dir = path.join(ctx.root, `small-down-rclone-${round}`);
      const ms = await ctx.rclone!.copy(`cloud:${source(round)}`, dir);
      await fetched(dir);
      return count / (ms / 1000);
    }),
  ]);
  const result = (id: string, what: 'Upload' | 'Download', outcomes: typeof uploads): SyncResult => {
    const ours = figureOf(CLIENT, 'files/s', outcomes.get(CLIENT), highest(what === 'Upload' ? peaks.up : peaks.down));
    const ceiling = figureOf(RCLONE, 'files/s', outcomes.get(RCLONE));
    return {
      id,
      title: `${what} of ${count.toLocaleString('en')} files of ${config.smallFileBytes / 1024} KiB`,
      figures: [ours, ceiling],
      targets: [
        boundTarget(`${what} of small files: ≥ 500 files/s`, ours.value, 500, 'at least', (value) => `${value.toFixed(0)} files/s`),
        ratioTarget(`${what} of small files`, ours, ceiling, 2),
      ],
      notes: [`The client's time: ${spent[what === 'Upload' ? 'up' : 'down'].join('; ') || 'not measured'}.`],
    };
  };
  const upload = result('sync-small-upload', 'Upload', uploads);
  upload.notes.push(
    'files/s = files / wall time of the whole process (Node start-up, token exchange, listing, transfers), median of the rounds; each copy compared byte for byte with the source afterwards (through the download).',
  );
  const download = result('sync-small-download', 'Download', downloads);
  download.notes.push('Into an empty local folder; every file compared byte for byte with the source.');
  return [upload, download];
}
