/**
 * `npm run bench:tus-cpu`: the server CPU a 1 GiB tus upload costs (64 MiB PATCHes, the
 * bench's own client) against a multipart upload of the same file, alternating, with the
 * wall-clock ratio of the two beside it. CPU time per GiB is the figure a loaded machine
 * hardly moves; the ratio is what `npm run bench`'s resumable-upload scenario judges
 * (docs/decisions/0025-resumable-uploads.md).
 *
 * TUS_CPU_VARIANTS: the servers to compare, as JSON, e.g.
 * `[{"name":"old","bundle":"../old-checkout/apps/server/dist/main.mjs"},{"name":"no flags","flags":[]}]`:
 * a build (from the repository root; it loads the node_modules beside it) and Node's flags,
 * each defaulting to what `npm start` runs. TUS_CPU_ROUNDS (3). BENCH_QUICK=1: 64 MiB instead of 1 GiB.
 */
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { SERVER_BUNDLE, SERVER_NODE_FLAGS } from '../scripts/ensure-builds.mjs';
import { type CloudVaultClient, register, removeFile, tusUpload, upload } from './lib/cloudvault-api.ts';
import { closeConnections } from './lib/http-client.ts';
import { syncDisks } from './lib/processes.ts';
import { formatMiB, median } from './lib/stats.ts';
import { startOurServer } from './servers/ours.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const variants: { name: string; bundle?: string; flags?: string[] }[] = env.TUS_CPU_VARIANTS
  ? JSON.parse(env.TUS_CPU_VARIANTS)
  : [{ name: 'current' }];
const rounds = Number(env.TUS_CPU_ROUNDS ?? 3);
const MiB = 1024 * 1024;
const size = env.BENCH_QUICK === '1' ? 64 * MiB : 1024 * MiB;
/** As the resumable-upload scenario sends them. */
const CHUNK_BYTES = 64 * MiB;
/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in hundredths of a second. */
const TICKS_PER_SECOND = 100;

/** User plus system CPU seconds of one process so far, every thread included. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

interface Sample {
  mbPerSecond: number;
  serverCpuPerGiB: number;
  clientCpuPerGiB: number;
}

/** Runs one upload, measured, then deletes the file it made (outside the measurement). */
async function measure(pid: number, client: CloudVaultClient, transfer: () => Promise<{ id: string }>): Promise<Sample> {
  await syncDisks();
  const [server, clientBefore, started] = [await cpuSeconds(pid), process.cpuUsage(), performance.now()];
  const { id } = await transfer();
  const wall = (performance.now() - started) / 1000;
  const perGiB = (seconds: number) => (seconds * 1024 * MiB) / size;
  const clientCpu = process.cpuUsage(clientBefore);
  const serverCpu = (await cpuSeconds(pid)) - server;
  await removeFile(client, id);
  return {
    mbPerSecond: size / 1e6 / wall,
    serverCpuPerGiB: perGiB(serverCpu),
    clientCpuPerGiB: perGiB((clientCpu.user + clientCpu.system) / 1e6),
  };
}

const loadAverage = () => os.loadavg()[0]!.toFixed(2);
const describe = (samples: Sample[]) =>
  `${median(samples.map((sample) => sample.mbPerSecond)).toFixed(0)} MB/s, server CPU ${median(samples.map((sample) => sample.serverCpuPerGiB)).toFixed(2)} s/GiB ` +
  `(${samples.map((sample) => sample.serverCpuPerGiB.toFixed(2)).join(', ')}), client ${median(samples.map((sample) => sample.clientCpuPerGiB)).toFixed(2)} s/GiB`;

const tempRoot = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-tus-cpu-'));
const stops: (() => Promise<void>)[] = [];
try {
  const source = path.join(tempRoot, 'large.bin');
  const handle = await open(source, 'w');
  const chunk = Buffer.alloc(MiB, 7);
  for (let written = 0; written < size; written += MiB) await handle.write(chunk);
  await handle.close();

  const targets: { name: string; pid: number; client: CloudVaultClient; tus: Sample[]; multipart: Sample[]; ratios: number[] }[] = [];
  for (const [index, variant] of variants.entries()) {
    const bundle = variant.bundle ? path.resolve(repoRoot, variant.bundle) : SERVER_BUNDLE;
    const server = await startOurServer(repoRoot, path.join(tempRoot, `ours-${index}`), {}, bundle, variant.flags ?? SERVER_NODE_FLAGS);
    stops.push(() => server.stop());
    targets.push({ name: variant.name, pid: server.pid, client: await register(server.url, 60_000), tus: [], multipart: [], ratios: [] });
  }
  console.log(
    `${formatMiB(size)} in ${formatMiB(CHUNK_BYTES)} PATCHes against multipart, ${rounds} rounds; load ${loadAverage()} at start`,
  );
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      const tus = await measure(target.pid, target.client, () => tusUpload(target.client, source, size, `tus-${round}.bin`, CHUNK_BYTES));
      const multipart = await measure(target.pid, target.client, () => upload(target.client, source, size, `multipart-${round}.bin`));
      target.tus.push(tus);
      target.multipart.push(multipart);
      target.ratios.push(tus.mbPerSecond / multipart.mbPerSecond);
      console.log(
        `round ${round} ${target.name}: tus ${tus.mbPerSecond.toFixed(0)} MB/s ${tus.serverCpuPerGiB.toFixed(2)} s/GiB, ` +
          `multipart ${multipart.mbPerSecond.toFixed(0)} MB/s ${multipart.serverCpuPerGiB.toFixed(2)} s/GiB, ratio ${(tus.mbPerSecond / multipart.mbPerSecond).toFixed(2)}; load ${loadAverage()}`,
      );
    }
  }
  for (const target of targets) {
    console.log(
      `${target.name}\n  tus:       ${describe(target.tus)}\n  multipart: ${describe(target.multipart)}\n  tus / multipart: ${target.ratios.map((ratio) => ratio.toFixed(2)).join(', ')} (median ${median(target.ratios).toFixed(2)})`,
    );
  }
  console.log(`load at the end: ${loadAverage()}`);
} finally {
  closeConnections();
  await Promise.allSettled(stops.map((stop) => stop()));
  await rm(tempRoot, { recursive: true, force: true });
}
