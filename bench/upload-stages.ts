/**
 * `npm run bench:upload-stages`: where a large upload's time goes. The bench's client sends
 * the same 1 GiB multipart upload to three small servers, each taking it through one more
 * stage of our upload path (busboy alone, bytes discarded; plus our hashing stream; plus
 * the local store's durable writer and fsync), and the same file as a raw PUT to nginx,
 * servers interleaved round by round. Everything runs on 127.0.0.1 and is removed after.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBenchConfig } from './config.ts';
import { createFixtures } from './lib/fixtures.ts';
import { closeConnections, multipartFile, putFile, request } from './lib/http-client.ts';
import { captureOutput, freePort, stopChild, syncDisks, waitUntilServing } from './lib/processes.ts';
import { mbPerSecond, median } from './lib/stats.ts';
import { startNginx } from './servers/nginx.ts';

const STAGES = ['parse', 'hash', 'store'] as const;
const SERVER = fileURLToPath(new URL('./servers/upload-stages-server.ts', import.meta.url));
const config = loadBenchConfig(process.env);
const root = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-upload-stages-'));
const stops: (() => Promise<void>)[] = [];

async function startStageServer(stages: (typeof STAGES)[number]): Promise<string> {
  const uploadDir = path.join(root, `uploads-${stages}`);
  await mkdir(uploadDir);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], { env: { ...process.env, PORT: String(port), STAGES: stages, UPLOAD_DIR: uploadDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  stops.push(() => stopChild(child));
  const url = `http://127.0.0.1:${port}/`;
  await waitUntilServing(url, child, captureOutput(child));
  return url;
}

try {
  const { large, filesDir } = await createFixtures(root, { ...config, zipFileCount: 1, concurrentUploads: 1 });
  const nginx = await startNginx(root, filesDir);
  if (!nginx) throw new Error('nginx is not installed (apt-get install nginx-light): there is no ceiling to compare with');
  stops.push(() => nginx.stop());
  const urls = new Map(await Promise.all(STAGES.map(async (stages) => [stages, await startStageServer(stages)] as const)));
  const samples = new Map<string, number[]>([['nginx', []], ...STAGES.map((stages) => [stages, []] as [string, number[]])]);
  for (let round = 0; round < config.rounds; round++) {
    await syncDisks();
    const put = await putFile(nginx.uploadUrl('large.bin'), large.path, large.size, config.idleTimeoutMs);
    await rm(nginx.uploadedPath('large.bin'));
    samples.get('nginx')?.push(mbPerSecond(large.size, put.ms));
    for (const [stages, url] of urls) {
      await syncDisks();
      const form = multipartFile(large.path, large.size, large.name);
      const answer = await request(url, { method: 'POST', headers: form.headers, body: form.body, keepText: true, idleTimeoutMs: config.idleTimeoutMs });
      if (answer.status !== 200) throw new Error(`${stages}: answered ${answer.status}: ${answer.text}`);
      samples.get(stages)?.push(mbPerSecond(large.size, answer.ms));
    }
  }
  const nginxMedian = median(samples.get('nginx') ?? []);
  const labels: Record<string, string> = { nginx: 'nginx, raw PUT', parse: 'busboy alone', hash: '+ hashing stream', store: '+ durable writer, fsync' };
  process.stdout.write(`Upload of ${large.size / 2 ** 20} MiB, ${config.rounds} rounds, median MB/s and × nginx:\n`);
  for (const [name, values] of samples) {
    const value = median(values);
    process.stdout.write(`  ${labels[name]?.padEnd(26)} ${value.toFixed(0).padStart(6)} MB/s  ${(value / nginxMedian).toFixed(2)} ×  [${values.map((v) => v.toFixed(0)).join(', ')}]\n`);
  }
} catch (error) {
  process.stderr.write(`the breakdown could not run: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
} finally {
  closeConnections();
  await Promise.allSettled(stops.map((stop) => stop()));
  await rm(root, { recursive: true, force: true });
}
