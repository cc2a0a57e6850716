import path from 'node:path';
import type { CloudVaultClient } from '../lib/cloudvault-api.ts';
import { interleave } from '../scenarios/scenario.ts';
import { expectSuccess, syncOnce } from './cloudvault-cli.ts';
import { boundTarget, figureOf, highest, type SyncContext, type SyncResult } from './sync-scenario.ts';
import { writeTree } from './tree.ts';

const CLIENT = 'cloudvault sync --once';
const MB = 1e6;
/** Small files: this scenario is about the pass's bookkeeping, not bytes. */
const FILE_BYTES = 64;

/** The feed's position now: a pass that changed nothing on the server leaves it where it was. */
async function latestCursor(client: CloudVaultClient): Promise<string> {
  const response = await fetch(`${client.url}/api/changes/latest`, { headers: { authorization: `Bearer ${client.token}` } });
  if (!response.ok) throw new Error(`GET /api/changes/latest answered ${response.status}`);
  return ((await response.json()) as { cursor: string }).cursor;
}

/**
 * A tree of 100,000 files (issue 39) synced once, then passed over again unchanged: the
 * wall time of each further `sync --once` and the client's peak RSS. The journal mirrors
 * the remote tree, so such a pass should cost a local scan and no server listing; the
 * change feed's cursor is read around each pass to show it changed nothing on the server.
 */
export async function unchangedPass(ctx: SyncContext): Promise<SyncResult> {
  const { config } = ctx;
  const count = config.unchangedFileCount;
  ctx.log(`sync: writing ${count} files for the unchanged pass`);
  const tree = await writeTree(path.join(ctx.root, 'unchanged'), count, FILE_BYTES, config.filesPerFolder);
  ctx.log(`sync: first pass over ${count} files (uploads them all)`);
  const first = await syncOnce(ctx.device, tree.dir, '/unchanged', config.commandTimeoutMs);
  const notes = [
    `Files of ${FILE_BYTES} random bytes in folders of ${config.filesPerFolder}. The first pass uploaded them: ${
      first.code === 0
        ? `${(first.ms / 1000).toFixed(1)} s, ${(count / (first.ms / 1000)).toFixed(0)} files/s, peak RSS ${((first.peakRssBytes ?? 0) / MB).toFixed(0)} MB`
        : `FAILED (exit ${first.code})`
    }.`,
  ];
  const peaks: (number | null)[] = [];
  ctx.log(`sync: ${config.unchangedRounds} pass(es) over the unchanged tree`);
  const passes = await interleave<number, string>(config.unchangedRounds, [
    {
      server: CLIENT,
      run: async () => {
        expectSuccess(first, 'the first pass');
        const before = await latestCursor(ctx.client);
        const run = expectSuccess(await syncOnce(ctx.device, tree.dir, '/unchanged', config.commandTimeoutMs), 'unchanged pass');
        if ((await latestCursor(ctx.client)) !== before) throw new Error('the pass over an unchanged tree changed something on the server');
        peaks.push(run.peakRssBytes);
        return run.ms / 1000;
      },
    },
  ]);
  const ours = figureOf(CLIENT, 's', passes.get(CLIENT), highest(peaks));
  const peak = ours.status === 'measured' ? ours.peakRssBytes : undefined;
  return {
    id: 'sync-unchanged-pass',
    title: `A pass over an unchanged tree of ${count.toLocaleString('en')} files`,
    figures: [ours],
    targets: [
      boundTarget(
        `Unchanged pass over ${count.toLocaleString('en')} files: < 5 s`,
        ours.value,
        5,
        'under',
        (value) => `${value.toFixed(2)} s`,
        ours.note,
      ),
      boundTarget(
        `Unchanged pass: client peak RSS < 200 MB`,
        peak,
        200 * MB,
        'under',
        (value) => `${(value / MB).toFixed(0)} MB`,
        ours.note ?? 'peak RSS not read',
      ),
    ],
    notes,
  };
}
