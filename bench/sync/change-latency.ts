import { randomBytes } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createFolder, upload } from '../lib/cloudvault-api.ts';
import { percentile } from '../lib/stats.ts';
import { interleave } from '../scenarios/scenario.ts';
import { type Device, login, type RunningClient, startContinuous } from './cloudvault-cli.ts';
import { boundTarget, figureOf, type SyncContext, type SyncResult } from './sync-scenario.ts';

const REMOTE = 'latency';
const FILE_BYTES = 1024;
/** How often the other disk is looked at: the figures' resolution. */
const POLL_MS = 5;
const SERVER_TO_DISK = 'server → device B';
const DISK_TO_DISK = 'device A → device B';

/**
 * Resolves once `file` is in place with `size` bytes, or rejects after `timeoutMs` or when a
 * client exits. The client places a download by renaming it in, so the size is whole once seen.
 */
async function arrival(file: string, size: number, timeoutMs: number, clients: RunningClient[]): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const seen = await stat(file).catch(() => null);
    if (seen?.size === size) return performance.now();
    const gone = clients.find((client) => client.exited());
    if (gone) throw new Error(`a client exited:\n${gone.output().slice(-1500)}`);
    if (performance.now() > deadline) throw new Error(`${path.basename(file)} was not on the other disk after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Two devices of one account run `cloudvault sync DIR` continuously on the same drive folder
 * (issue 39: a change reaches the other device's disk within 2 s). Each change is made only
 * once the previous one has arrived: a file uploaded through the API (timed from just before
 * the request, so the upload itself counts) must appear on device B's disk; a file renamed
 * into device A's folder (written whole beside it first) must appear on B's.
 */
export async function changeLatency(ctx: SyncContext): Promise<SyncResult> {
  const { config } = ctx;
  const folderId = await createFolder(ctx.client, REMOTE);
  const deviceB: Device = { name: 'bench-b', configDir: path.join(ctx.root, 'device-b') };
  await login(deviceB, { url: ctx.server.url, email: ctx.client.email, password: ctx.password }, config.commandTimeoutMs);
  const dirA = path.join(ctx.root, 'latency-a');
  const dirB = path.join(ctx.root, 'latency-b');
  const staging = path.join(ctx.root, 'latency-staging');
  await Promise.all([dirA, dirB, staging].map((dir) => mkdir(dir, { recursive: true })));
  const clients = [startContinuous(ctx.device, dirA, `/${REMOTE}`), startContinuous(deviceB, dirB, `/${REMOTE}`)];
  const stage = async (name: string) => {
    const file = path.join(staging, name);
    await writeFile(file, randomBytes(FILE_BYTES));
    return file;
  };
  const fromDiskA = async (name: string) => {
    const staged = await stage(name);
    const started = performance.now();
    await rename(staged, path.join(dirA, name));
    return (await arrival(path.join(dirB, name), FILE_BYTES, config.latencyTimeoutMs, clients)) - started;
  };
  try {
    ctx.log('sync: two continuous clients, waiting for the first change to go through');
    // Untimed: both have made their first pass and follow the feed once this arrives.
    await fromDiskA('warm-up.bin');
    ctx.log(`sync: ${config.latencyChanges} changes each way`);
    const outcomes = await interleave<number, string>(config.latencyChanges, [
      {
        server: SERVER_TO_DISK,
        run: async (round) => {
          const name = `server-${round}.bin`;
          const staged = await stage(name);
          const started = performance.now();
          await upload(ctx.client, staged, FILE_BYTES, name, folderId);
          return (await arrival(path.join(dirB, name), FILE_BYTES, config.latencyTimeoutMs, clients)) - started;
        },
      },
      { server: DISK_TO_DISK, run: (round) => fromDiskA(`local-${round}.bin`) },
    ]);
    const figures = [
      figureOf(SERVER_TO_DISK, 'ms', outcomes.get(SERVER_TO_DISK)),
      figureOf(DISK_TO_DISK, 'ms', outcomes.get(DISK_TO_DISK)),
    ];
    return {
      id: 'sync-change-latency',
      title: 'A change reaching the other device, both clients running',
      figures,
      targets: figures.map((figure) =>
        boundTarget(
          `Change ${figure.who}: every one within 2 s (max)`,
          figure.status === 'measured' ? Math.max(...figure.samples) : undefined,
          2000,
          'under',
          (max) => `max ${max.toFixed(0)} ms, median ${figure.value?.toFixed(0)} ms, p90 ${percentile(figure.samples, 90).toFixed(0)} ms`,
          figure.note,
        ),
      ),
      notes: [
        `${config.latencyChanges} files of ${FILE_BYTES} bytes each way, one at a time; the other disk is looked at every ${POLL_MS} ms. Server → B runs from just before the upload request; A → B from the rename into A's folder (so A's wait for a stable file counts).`,
      ],
    };
  } finally {
    await Promise.allSettled(clients.map((client) => client.stop()));
  }
}
