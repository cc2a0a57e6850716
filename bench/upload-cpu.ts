/**
 * `npm run bench:upload-cpu`: the CPU time one 1 GiB upload costs, ours (multipart, every
 * thread of the server process: main thread and the thread pool's hashing and writes)
 * against nginx (raw PUT, its workers, then an fsync of the file by this client), and the
 * client's own, alternating over three rounds (`BENCH_QUICK=1`: 64 MiB). On two cores the
 * wall time of an upload cannot be below (server CPU + client CPU) / 2: this is what bounds
 * the upload ratios on this machine, whatever else the machine runs.
 */
import { mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { register, upload } from './lib/cloudvault-api.ts';
import { closeConnections, putFile } from './lib/http-client.ts';
import { childPids, syncDisks } from './lib/processes.ts';
import { formatMiB } from './lib/stats.ts';
import { startNginx } from './servers/nginx.ts';
import { startOurServer } from './servers/ours.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;
const size = process.env.BENCH_QUICK === '1' ? 64 * MiB : 1024 * MiB;

/** User plus system CPU seconds of the processes, every thread included (/proc/<pid>/stat). */
async function cpuSeconds(pids: number[]): Promise<number> {
  let ticks = 0;
  for (const pid of pids) {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

const clientSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

async function processesNamed(parent: number, prefix: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await childPids(parent)) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(prefix)) found.push(pid);
  }
  return found;
}

/** Runs `transfer` and reports its wall time and the CPU seconds it cost `pids` and this client. */
async function measure(label: string, pids: number[], transfer: () => Promise<void>): Promise<void> {
  await syncDisks();
  const [server, client, started] = [await cpuSeconds(pids), clientSeconds(), performance.now()];
  await transfer();
  const wall = (performance.now() - started) / 1000;
  const serverCpu = (await cpuSeconds(pids)) - server;
  const clientCpu = clientSeconds() - client;
  const perGiB = (seconds: number) => ((seconds * 1024 * MiB) / size).toFixed(2);
  console.log(
    `${label.padEnd(28)} ${(size / 1e6 / wall).toFixed(0).padStart(5)} MB/s  server CPU ${perGiB(serverCpu)} s/GiB  client CPU ${perGiB(clientCpu)} s/GiB  2-core bound ${(size / 1e6 / ((serverCpu + clientCpu) / 2)).toFixed(0)} MB/s`,
  );
}

const root = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-upload-cpu-'));
const servers: { stop(): Promise<void> }[] = [];
try {
  const filesDir = path.join(root, 'files');
  await mkdir(filesDir);
  const source = path.join(filesDir, 'large.bin');
  const handle = await open(source, 'w');
  const chunk = Buffer.alloc(MiB, 7);
  for (let written = 0; written < size; written += MiB) await handle.write(chunk);
  await handle.close();

  const ours = await startOurServer(repoRoot, root);
  servers.push(ours);
  const nginx = await startNginx(root, filesDir);
  if (!nginx) throw new Error('nginx is not installed (apt-get install nginx-light)');
  servers.push(nginx);
  const [oursPid] = await processesNamed(process.pid, process.execPath);
  const nginxWorkers = (
    await Promise.all((await processesNamed(process.pid, '/usr/sbin/nginx')).map((master) => processesNamed(master, 'nginx: worker')))
  ).flat();
  if (!oursPid || nginxWorkers.length === 0) throw new Error('could not find the server processes');
  const client = await register(ours.url, 60_000);
  console.log(`Upload of ${formatMiB(size)}, load ${os.loadavg()[0]!.toFixed(2)} at start; CPU per GiB uploaded`);
  for (let round = 1; round <= 3; round++) {
    await measure('ours (multipart, fsync)', [oursPid], async () => {
      await upload(client, source, size, `round-${round}.bin`);
    });
    await measure('nginx (PUT, then fsync)', nginxWorkers, async () => {
      const name = `round-${round}.bin`;
      const response = await putFile(nginx.uploadUrl(name), source, size, 60_000);
      if (response.status !== 201 && response.status !== 204) throw new Error(`PUT answered ${response.status}`);
      const stored = await open(nginx.uploadedPath(name), 'r');
      await stored.sync();
      await stored.close();
      await rm(nginx.uploadedPath(name));
    });
  }
} finally {
  closeConnections();
  await Promise.allSettled(servers.map((server) => server.stop()));
  await rm(root, { recursive: true, force: true });
}
