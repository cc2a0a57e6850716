/**
 * `npm run bench:zip-cost`: where a folder zip's time goes, per request. The folder of the
 * folder-zip scenario (1,000 files of 100 KiB, uploaded through the API) is zipped by each
 * build of our server in turn and the same bytes served by nginx as a pre-built zip,
 * rounds interleaved. Two more rows take the zip's own work away: each build sending that
 * pre-built zip as one stored file (its transport alone), and our native sender with no
 * server around it sending the members from their files with the bytes between
 * (bench/servers/bare-zip-sender-server.ts: the addon's per-member work alone). Per zip:
 * wall time, time to the first byte, the server's CPU (user+system from /proc/<pid>/stat,
 * nginx's workers summed; ours also its JavaScript thread alone) and this client's CPU, so
 * that fixed costs show apart from the bytes, and on a shared machine CPU time says what
 * wall time cannot.
 *
 * ZIP_COST_BUNDLES: comma-separated builds of our server (paths from the repository root,
 * e.g. an older apps/server/dist copied to apps/server/build/old); the current bundle when
 * unset. ZIP_COST_DATABASE_URL: PostgreSQL instead of SQLite. ZIP_COST_ROUNDS (5),
 * ZIP_COST_ZIPS (20 per round and server), ZIP_COST_FILES (1,000).
 */
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_BUNDLE } from '../scripts/ensure-builds.mjs';
import { createFolder, register, storeZipsUncompressed, upload } from './lib/cloudvault-api.ts';
import { type Download, fastGet } from './lib/fast-get.ts';
import { buildStoredZip, randomFiles } from './lib/fixtures.ts';
import { closeConnections } from './lib/http-client.ts';
import { childPids, startScriptServer, syncDisks } from './lib/processes.ts';
import { median } from './lib/stats.ts';
import { startNginx } from './servers/nginx.ts';
import { startOurServer } from './servers/ours.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const BARE_SENDER = fileURLToPath(new URL('./servers/bare-zip-sender-server.ts', import.meta.url));
const env = process.env;
const bundles = env.ZIP_COST_BUNDLES
  ? env.ZIP_COST_BUNDLES.split(',').map((bundle) => path.resolve(repoRoot, bundle.trim()))
  : [SERVER_BUNDLE];
const rounds = Number(env.ZIP_COST_ROUNDS ?? 5);
const zipsPerRound = Number(env.ZIP_COST_ZIPS ?? 20);
const fileCount = Number(env.ZIP_COST_FILES ?? 1000);
const FILE_BYTES = 100 * 1024;
const UPLOADS_AT_ONCE = 16;
const idleTimeoutMs = 60_000;
/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in hundredths of a second. */
const TICKS_PER_SECOND = 100;

interface Target {
  name: string;
  pids: () => Promise<number[]>;
  /** Our server's JavaScript thread, whose share of the CPU is reported apart from its sending threads'. */
  mainThread?: number;
  url: string;
  headers: Record<string, string>;
  bytes: number;
}

interface Sample {
  wallMs: number;
  firstByteMs: number;
  serverCpuMs: number;
  mainThreadCpuMs: number;
  clientCpuMs: number;
}

/** User plus system CPU so far, in milliseconds, of processes (/proc/<pid>/stat) or threads (/proc/<pid>/task/<tid>/stat). */
async function cpuMs(statFiles: string[]): Promise<number> {
  let ticks = 0;
  for (const file of statFiles) {
    const stat = await readFile(file, 'utf8');
    // Fields after the command name, which may hold spaces, start with the state (field 3): utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks / TICKS_PER_SECOND) * 1000;
}

/** `zipsPerRound` zips one after the other; per-zip means of the round. */
async function measure(target: Target): Promise<Sample> {
  const statFiles = (await target.pids()).map((pid) => `/proc/${pid}/stat`);
  const mainThreadFiles = target.mainThread ? [`/proc/${target.mainThread}/task/${target.mainThread}/stat`] : [];
  const serverBefore = await cpuMs(statFiles);
  const mainThreadBefore = await cpuMs(mainThreadFiles);
  const clientBefore = process.cpuUsage();
  const downloads: Download[] = [];
  for (let index = 0; index < zipsPerRound; index++) {
    const response = await fastGet(target.url, target.headers, idleTimeoutMs);
    if (response.status !== 200 || response.bytes !== target.bytes)
      throw new Error(`${target.name} answered ${response.status} with ${response.bytes} bytes, expected ${target.bytes}`);
    downloads.push(response);
  }
  const client = process.cpuUsage(clientBefore);
  return {
    wallMs: median(downloads.map((download) => download.ms)),
    firstByteMs: median(downloads.map((download) => download.firstByteMs)),
    serverCpuMs: ((await cpuMs(statFiles)) - serverBefore) / zipsPerRound,
    mainThreadCpuMs: ((await cpuMs(mainThreadFiles)) - mainThreadBefore) / zipsPerRound,
    clientCpuMs: (client.user + client.system) / 1000 / zipsPerRound,
  };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const tempRoot = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-zip-cost-'));
const stops: (() => Promise<void>)[] = [];
try {
  const files = await randomFiles(path.join(tempRoot, 'folder'), 'entry', fileCount, FILE_BYTES);
  const filesDir = path.join(tempRoot, 'files');
  await mkdir(filesDir);
  const zipPath = path.join(filesDir, 'folder.zip');
  await buildStoredZip(files, zipPath);
  const zipBytes = (await stat(zipPath)).size;
  const nginx = await startNginx(tempRoot, filesDir);
  if (!nginx) throw new Error('nginx is not installed: nothing to compare with');
  stops.push(() => nginx.stop());
  const nginxPid = Number(await readFile(path.join(tempRoot, 'nginx/nginx.pid'), 'utf8'));

  // Blobs stay on local disk: SINGLE_NODE says no other node shares the database.
  const extraEnv = env.ZIP_COST_DATABASE_URL ? { DATABASE_URL: env.ZIP_COST_DATABASE_URL, SINGLE_NODE: '1' } : {};
  const targets: Target[] = [];
  for (const [index, bundle] of bundles.entries()) {
    const server = await startOurServer(repoRoot, path.join(tempRoot, `ours-${index}`), extraEnv, bundle);
    stops.push(() => server.stop());
    const client = await register(server.url, idleTimeoutMs);
    const { stored, why } = await storeZipsUncompressed(client);
    if (!stored) throw new Error(`our zips would be deflated: ${why}`);
    const folderId = await createFolder(client, 'zip-cost');
    let next = 0;
    const uploader = async () => {
      while (next < files.length) {
        const file = files[next++]!;
        await upload(client, file.path, file.size, file.name, folderId);
      }
    };
    await Promise.all(Array.from({ length: UPLOADS_AT_ONCE }, uploader));
    const url = `${server.url}/api/user/folders/${folderId}/download`;
    const headers = { authorization: `Bearer ${client.token}` };
    const first = await fastGet(url, headers, idleTimeoutMs);
    targets.push({
      name: `ours ${path.relative(repoRoot, bundle)}`,
      pids: async () => [server.pid],
      mainThread: server.pid,
      url,
      headers,
      bytes: first.bytes,
    });
    // The same server sending nginx's pre-built zip as one stored file: what its transport
    // costs for these bytes, apart from the zip's own work (rows, headers, 1,000 files).
    const prebuilt = await upload(client, zipPath, zipBytes, 'prebuilt.zip');
    targets.push({
      name: `ours ${path.relative(repoRoot, bundle)}, the pre-built zip as one file`,
      pids: async () => [server.pid],
      mainThread: server.pid,
      url: `${server.url}/api/files/${prebuilt.id}/download`,
      headers,
      bytes: zipBytes,
    });
  }
  const bare = await startScriptServer(BARE_SENDER, { ZIP_FILE: zipPath, MEMBERS_DIR: path.join(tempRoot, 'folder') });
  stops.push(() => bare.stop());
  targets.push({
    name: 'our sender alone (no server)',
    pids: async () => [bare.pid],
    mainThread: bare.pid,
    url: `${bare.url}/folder.zip`,
    headers: {},
    bytes: zipBytes,
  });
  targets.push({ name: 'nginx', pids: () => childPids(nginxPid), url: nginx.fileUrl('folder.zip'), headers: {}, bytes: zipBytes });
  await syncDisks();

  process.stderr.write(`[zip-cost] warming up; load average ${loadAverage()}\n`);
  for (const target of targets) await measure(target);
  const results = new Map(targets.map((target) => [target.name, [] as Sample[]]));
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) results.get(target.name)?.push(await measure(target));
    process.stderr.write(`[zip-cost] round ${round}/${rounds} done; load average ${loadAverage()}\n`);
  }
  console.log(
    `${fileCount} files of ${FILE_BYTES / 1024} KiB, ${zipsPerRound} zips × ${rounds} rounds, ${env.ZIP_COST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}; medians of the rounds (min-max)`,
  );
  const nginxWall = median((results.get('nginx') ?? []).map((sample) => sample.wallMs));
  const spread = (values: number[]) => `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)})`;
  for (const [name, samples] of results) {
    const wall = samples.map((sample) => sample.wallMs);
    console.log(
      `${name}: wall ${spread(wall)} ms, ${(nginxWall / median(wall)).toFixed(2)} × nginx's speed; first byte ${spread(samples.map((sample) => sample.firstByteMs))} ms; ` +
        `server CPU ${spread(samples.map((sample) => sample.serverCpuMs))} ms` +
        (name === 'nginx' ? '' : ` (main thread ${spread(samples.map((sample) => sample.mainThreadCpuMs))} ms)`) +
        `; client CPU ${spread(samples.map((sample) => sample.clientCpuMs))} ms`,
    );
  }
  console.log(`load average at the end: ${loadAverage()}`);
} finally {
  closeConnections();
  await Promise.allSettled(stops.map((stop) => stop()));
  await rm(tempRoot, { recursive: true, force: true });
}
