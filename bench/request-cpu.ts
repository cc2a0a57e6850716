/**
 * `npm run bench:request-cpu`: the server CPU one signed-in request costs, which the load
 * of the shared machine hardly moves, where requests per second follow it. The small
 * listing of the concurrent-listing scenario (100 files, 50 keep-alive connections) against
 * each server in turn, rounds interleaved; each server's user+system CPU is read from
 * /proc/<pid>/stat around a fixed number of requests. The bare Fastify route answering the
 * same JSON from memory is measured alike (docs/decisions/0034-request-cost.md).
 *
 * REQUEST_CPU_BUNDLES: comma-separated builds of our server to compare (paths from the
 * repository root, e.g. an older apps/server/dist copied to apps/server/build); the current
 * bundle when unset. REQUEST_CPU_DATABASE_URL: PostgreSQL instead of SQLite (every server
 * uses that database, each with a user of its own). REQUEST_CPU_ROUNDS (5) and
 * REQUEST_CPU_REQUESTS (4,000 per round and server).
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { SERVER_BUNDLE } from '../scripts/ensure-builds.mjs';
import { type CloudVaultClient, createFolder, register, upload } from './lib/cloudvault-api.ts';
import { closeConnections, request } from './lib/http-client.ts';
import { median } from './lib/stats.ts';
import { startBareFastify } from './servers/bare-fastify.ts';
import { startOurServer } from './servers/ours.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const bundles = env.REQUEST_CPU_BUNDLES
  ? env.REQUEST_CPU_BUNDLES.split(',').map((bundle) => path.resolve(repoRoot, bundle.trim()))
  : [SERVER_BUNDLE];
const rounds = Number(env.REQUEST_CPU_ROUNDS ?? 5);
const requestsPerRound = Number(env.REQUEST_CPU_REQUESTS ?? 4000);
const FILES = 100;
const CONNECTIONS = 50;
const idleTimeoutMs = 60_000;
/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in hundredths of a second. */
const TICKS_PER_SECOND = 100;

interface Target {
  name: string;
  pid: number;
  url: string;
  headers: Record<string, string>;
  /** Of each answer, as the first one had (PostgreSQL's JSON has spaces that bare Fastify's has not). */
  bytes: number;
}

/** User plus system CPU of one process so far, in microseconds. */
async function cpuMicros(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces, start with the state (field 3): utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
}

/** `count` GETs from CONNECTIONS clients, each asking again as soon as it has its answer. */
async function load(target: Target, count: number): Promise<{ cpuPerRequestUs: number; requestsPerSecond: number }> {
  let left = count;
  const cpuBefore = await cpuMicros(target.pid);
  const started = performance.now();
  const client = async () => {
    while (left-- > 0) {
      const response = await request(target.url, { headers: target.headers, idleTimeoutMs });
      if (response.status !== 200 || response.bytes !== target.bytes)
        throw new Error(`${target.name} answered ${response.status} with ${response.bytes} bytes, expected ${target.bytes}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  const seconds = (performance.now() - started) / 1000;
  return { cpuPerRequestUs: ((await cpuMicros(target.pid)) - cpuBefore) / count, requestsPerSecond: count / seconds };
}

/** A fresh user with a folder of FILES small files, uploaded through the API (both databases alike). */
async function folderOfFiles(client: CloudVaultClient, sample: string): Promise<string> {
  const folderId = await createFolder(client, 'request-cpu');
  for (let index = 1; index <= FILES; index++) await upload(client, sample, 1000, `listed-${String(index).padStart(3, '0')}.txt`, folderId);
  return folderId;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const tempRoot = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-request-cpu-'));
const targets: Target[] = [];
/** Everything started, stopped by PID at the end however the run went. */
const stops: (() => Promise<void>)[] = [];
try {
  const sample = path.join(tempRoot, 'sample.txt');
  await writeFile(sample, 'x'.repeat(1000));
  // Blobs stay on local disk: SINGLE_NODE says no other node shares the database.
  const extraEnv = env.REQUEST_CPU_DATABASE_URL ? { DATABASE_URL: env.REQUEST_CPU_DATABASE_URL, SINGLE_NODE: '1' } : {};
  let listing: string | undefined;
  for (const [index, bundle] of bundles.entries()) {
    const server = await startOurServer(repoRoot, path.join(tempRoot, `ours-${index}`), extraEnv, bundle);
    stops.push(() => server.stop());
    const client = await register(server.url, idleTimeoutMs);
    const folderId = await folderOfFiles(client, sample);
    const url = `${server.url}/api/files?folderId=${folderId}`;
    const headers = { authorization: `Bearer ${client.token}` };
    const first = await request(url, { headers, keepText: true, idleTimeoutMs });
    targets.push({ name: `ours ${path.relative(repoRoot, bundle)}`, pid: server.pid, url, headers, bytes: first.bytes });
    listing ??= first.text;
  }
  if (listing === undefined) throw new Error('no server to measure');
  const listingFile = path.join(tempRoot, 'listing.json');
  await writeFile(listingFile, listing);
  const bare = await startBareFastify(listingFile);
  stops.push(() => bare.stop());
  const bareBytes = (await request(bare.listingUrl, { idleTimeoutMs })).bytes;
  targets.push({ name: 'bare fastify', pid: bare.pid, url: bare.listingUrl, headers: {}, bytes: bareBytes });

  process.stderr.write(`[request-cpu] warming up; load average ${loadAverage()}\n`);
  for (const target of targets) await load(target, requestsPerRound);
  const results = new Map(targets.map((target) => [target.name, [] as { cpuPerRequestUs: number; requestsPerSecond: number }[]]));
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) results.get(target.name)?.push(await load(target, requestsPerRound));
    process.stderr.write(`[request-cpu] round ${round}/${rounds} done; load average ${loadAverage()}\n`);
  }
  const bareRate = median((results.get('bare fastify') ?? []).map((sample) => sample.requestsPerSecond));
  console.log(
    `${FILES} files (${Buffer.byteLength(listing)} bytes of JSON), ${CONNECTIONS} connections, ${requestsPerRound} requests × ${rounds} rounds, ${env.REQUEST_CPU_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`,
  );
  for (const [name, samples] of results) {
    const cpu = samples.map((sample) => sample.cpuPerRequestUs);
    const rate = median(samples.map((sample) => sample.requestsPerSecond));
    console.log(
      `${name}: CPU per request median ${median(cpu).toFixed(0)} µs (${Math.min(...cpu).toFixed(0)}-${Math.max(...cpu).toFixed(0)}); ` +
        `${rate.toFixed(0)} requests/s median, ${(rate / bareRate).toFixed(2)} × bare fastify`,
    );
  }
  console.log(`load average at the end: ${loadAverage()}`);
} finally {
  closeConnections();
  await Promise.allSettled(stops.map((stop) => stop()));
  await rm(tempRoot, { recursive: true, force: true });
}
