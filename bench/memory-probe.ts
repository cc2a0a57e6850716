// Where the server's memory goes during the 1 GiB transfers (`npm run bench:memory`):
// starts the bundle once per variant (Node flags and environment), signs up, resets the
// peak as the bench does, uploads and downloads the large file, and prints VmHWM, the
// transfers' speed and a breakdown of the resident set at its highest sample (smaps
// grouped by mapping, and V8's own figures from inside the process). Variants run
// interleaved, `MEMORY_ROUNDS` times (default 2), so load shifts hit them alike.
//   MEMORY_VARIANTS='[{"name":"x","flags":["--max-semi-space-size=1"],"env":{},"bundle":"apps/server/dist-old/main.mjs"}]'
// MEMORY_UPLOADS and MEMORY_DOWNLOADS (default 2 each) per run, MEMORY_FILE_MIB (1024), MEMORY_V8=1
// prints V8's figures, MEMORY_OUTPUT=file keeps what the server printed (with --trace-gc).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../apps/server/test/helpers/free-port.ts';
import { ensureServerBuild, SERVER_BUNDLE, SERVER_NODE_FLAGS } from '../scripts/ensure-builds.mjs';
import { createFolder, download, register, upload } from './lib/cloudvault-api.ts';
import { request } from './lib/http-client.ts';
import { insertRows } from './scenarios/listing.ts';
import { writeRandomFile } from './lib/fixtures.ts';
import { captureOutput, stopChild, waitUntilServing } from './lib/processes.ts';

const MiB = 1024 * 1024;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const preload = path.join(repoRoot, 'bench/lib/memory-probe-preload.mjs');

interface Variant {
  name: string;
  flags: string[];
  env?: Record<string, string>;
  /** Another build of the server to compare with (a path from the repository's root, at the depth of apps/server/dist). */
  bundle?: string;
}

/** Resident kB of /proc/<pid>/smaps grouped by what is mapped. */
async function smapsGroups(pid: number): Promise<Record<string, number>> {
  const text = await readFile(`/proc/${pid}/smaps`, 'utf8');
  const groups: Record<string, number> = {};
  let group = '';
  for (const line of text.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[2]!;
      if (name.endsWith('/node') || name.includes('/bin/node')) group = header[1]!.includes('x') ? 'node binary text' : 'node binary data';
      else if (name === '[heap]') group = 'malloc main heap [heap]';
      else if (name === '') group = 'anonymous (V8 heap, thread arenas, buffers)';
      else if (name.endsWith('.node')) group = `addon ${path.basename(name)}`;
      else if (name.startsWith('[')) group = name;
      else group = `file ${path.basename(name)}`;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) groups[group] = (groups[group] ?? 0) + Number(rss[1]);
  }
  return groups;
}

async function rssKb(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/** CPU seconds the process has used (user and system, /proc/<pid>/stat). */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** After the transfers (so their peak is untouched): the server's CPU ms per listing of a folder of `count` rows. */
async function listingCost(pid: number, client: Awaited<ReturnType<typeof register>>, dataDir: string, count: number, requests = 100) {
  const folderId = await createFolder(client, 'listing');
  insertRows(dataDir, client.userId, folderId, count);
  const list = () =>
    request(`${client.url}/api/files?folderId=${folderId}`, {
      method: 'GET',
      headers: { authorization: `Bearer ${client.token}` },
      idleTimeoutMs: 60_000,
    });
  for (let index = 0; index < 10; index++) await list();
  const before = await cpuSeconds(pid);
  for (let index = 0; index < requests; index++) await list();
  return (((await cpuSeconds(pid)) - before) * 1000) / requests;
}

async function runVariant(variant: Variant, large: { path: string; size: number }, uploads: number, downloads: number) {
  const root = await mkdtemp(path.join(tmpdir(), 'memory-probe-'));
  const plans = JSON.parse(await readFile(path.join(repoRoot, 'apps/server/config/plans.json'), 'utf8')) as Record<string, unknown>[];
  Object.assign(
    plans.find((plan) => plan.id === 'FREE')!,
    { storageLimit: 1024 ** 4, maxFileSize: null, maxConcurrentUploads: null },
  );
  await writeFile(path.join(root, 'plans.json'), JSON.stringify(plans));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const statsFile = path.join(root, 'v8-stats.json');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: path.join(root, 'data'),
    LOG_LEVEL: 'warn',
    PLANS_FILE: path.join(root, 'plans.json'),
    MEMORY_PROBE_STATS: statsFile,
    ...variant.env,
  };
  delete env.DATABASE_URL;
  delete env.STORAGE_DRIVER;
  const child = spawn(
    process.execPath,
    [...variant.flags, '--import', preload, variant.bundle ? path.join(repoRoot, variant.bundle) : SERVER_BUNDLE],
    { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = captureOutput(child, 8 * 1024 * 1024);
  const pid = child.pid!;
  try {
    await waitUntilServing(`${url}/api/health`, child, output);
    const startup = await rssKb(pid);
    const client = await register(url, 60_000);
    const afterSignUp = await rssKb(pid);
    const groupsAfterSignUp = await smapsGroups(pid);
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    if (process.env.MEMORY_ALLOC_PROFILE) child.kill('SIGUSR1');
    let peak = { rss: 0, groups: {} as Record<string, number> };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rss } = await rssKb(pid);
        if (rss > peak.rss) peak = { rss, groups: await smapsGroups(pid) };
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const upMbs: number[] = [];
    const downMbs: number[] = [];
    let fileId = '';
    for (let index = 0; index < uploads; index++) {
      const stored = await upload(client, large.path, large.size, `large-${index}.bin`);
      fileId ||= stored.id;
      upMbs.push(large.size / MiB / (stored.ms / 1000));
    }
    for (let index = 0; index < downloads; index++) {
      const got = await download(client, `/api/files/${fileId}/download`);
      if (got.bytes !== large.size) throw new Error(`downloaded ${got.bytes} bytes`);
      downMbs.push(large.size / MiB / (got.ms / 1000));
    }
    sampling = false;
    await sampler;
    const end = await rssKb(pid);
    const transfersCpu = await cpuSeconds(pid);
    const listingMs = process.env.MEMORY_LISTING
      ? await listingCost(pid, client, path.join(root, 'data'), Number(process.env.MEMORY_LISTING))
      : undefined;
    child.kill('SIGUSR1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill('SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const v8 = JSON.parse(await readFile(statsFile, 'utf8').catch(() => '{}'));
    if (process.env.MEMORY_OUTPUT) await writeFile(process.env.MEMORY_OUTPUT, output());
    return {
      startup: startup.rss,
      afterSignUp: afterSignUp.rss,
      groupsAfterSignUp,
      hwm: end.hwm,
      upMbs,
      downMbs,
      peak,
      v8,
      transfersCpu,
      listingMs,
    };
  } finally {
    await stopChild(child);
    await rm(root, { recursive: true, force: true });
  }
}

const variants: Variant[] = process.env.MEMORY_VARIANTS
  ? JSON.parse(process.env.MEMORY_VARIANTS)
  : [{ name: 'current', flags: SERVER_NODE_FLAGS }];
const rounds = Number(process.env.MEMORY_ROUNDS ?? 2);
const size = Number(process.env.MEMORY_FILE_MIB ?? 1024) * MiB;
await ensureServerBuild();
const fixtureDir = await mkdtemp(path.join(tmpdir(), 'memory-probe-file-'));
const large = { path: path.join(fixtureDir, 'large.bin'), size };
await writeRandomFile(large.path, size);
const mb = (kb: number) => (kb / 1024).toFixed(0);
try {
  for (let round = 1; round <= rounds; round++) {
    for (const variant of variants) {
      const load = loadavg()[0]!.toFixed(1);
      const result = await runVariant(variant, large, Number(process.env.MEMORY_UPLOADS ?? 2), Number(process.env.MEMORY_DOWNLOADS ?? 2));
      console.log(
        `round ${round} ${variant.name} (load ${load}): start ${mb(result.startup)} MB, after sign-up ${mb(result.afterSignUp)} MB, peak ${mb(result.hwm)} MB;` +
          ` upload ${result.upMbs.map((speed) => speed.toFixed(0)).join('/')} MB/s, download ${result.downMbs.map((speed) => speed.toFixed(0)).join('/')} MB/s;` +
          ` server CPU ${result.transfersCpu.toFixed(2)} s to the end of the transfers` +
          (result.listingMs === undefined
            ? ''
            : `; listing of ${process.env.MEMORY_LISTING} files ${result.listingMs.toFixed(1)} ms CPU per request`),
      );
      const groups = (of: Record<string, number>) =>
        Object.entries(of)
          .filter(([, kb]) => kb >= 512)
          .sort((a, b) => b[1] - a[1])
          .map(([name, kb]) => `${name} ${mb(kb)}`)
          .join(', ');
      console.log(`  after sign-up: ${groups(result.groupsAfterSignUp)}`);
      console.log(`  at the highest sample (${mb(result.peak.rss)} MB): ${groups(result.peak.groups)}`);
      if (process.env.MEMORY_V8 === '1') console.log(`  V8 at its highest sample: ${JSON.stringify(result.v8)}`);
    }
  }
} finally {
  await rm(fixtureDir, { recursive: true, force: true });
}
