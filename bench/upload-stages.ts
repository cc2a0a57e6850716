/**
 * `npm run bench:upload-stages`: where a large upload's time goes. The bench's client sends
 * the same 1 GiB multipart upload to three small servers, each taking it through one more
 * stage of our upload path (busboy alone, bytes discarded; plus our hashing stream; the
 * local blob store's put, which hashes, writes, fsyncs and renames), and the same file as a raw PUT to nginx,
 * servers interleaved round by round. Everything runs on 127.0.0.1 and is removed after.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBenchConfig } from './config.ts';
import { createFixtures } from './lib/fixtures.ts';
import { closeConnections, multipartFile, putFile, request } from './lib/http-client.ts';
import { startScriptServer, syncDisks } from './lib/processes.ts';
import { mbPerSecond, median } from './lib/stats.ts';
import { interleave } from './scenarios/scenario.ts';
import { startNginx } from './servers/nginx.ts';

const STAGES = { parse: 'busboy alone', hash: '+ hashing stream', store: "+ local store's put, fsync" } as const;
const SERVER = fileURLToPath(new URL('./servers/upload-stages-server.ts', import.meta.url));
const config = loadBenchConfig(process.env);
const root = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-upload-stages-'));
const stops: (() => Promise<void>)[] = [];

async function startStageServer(stages: keyof typeof STAGES): Promise<string> {
  const uploadDir = path.join(root, `uploads-${stages}`);
  await mkdir(uploadDir);
  const server = await startScriptServer(SERVER, { STAGES: stages, UPLOAD_DIR: uploadDir });
  stops.push(server.stop);
  return server.url;
}

try {
  const { large, filesDir } = await createFixtures(root, { ...config, zipFileCount: 1, concurrentUploads: 1 });
  const nginx = await startNginx(root, filesDir);
  if (!nginx) throw new Error('nginx is not installed (apt-get install nginx-light): there is no ceiling to compare with');
  stops.push(nginx.stop);
  const stageRunners = await Promise.all(
    (Object.keys(STAGES) as (keyof typeof STAGES)[]).map(async (stages) => {
      const url = await startStageServer(stages);
      return {
        server: STAGES[stages] as string,
        run: async () => {
          await syncDisks();
          const form = multipartFile(large.path, large.size, large.name);
          const answer = await request(url, {
            method: 'POST',
            headers: form.headers,
            body: form.body,
            keepText: true,
            idleTimeoutMs: config.idleTimeoutMs,
          });
          if (answer.status !== 200) throw new Error(`answered ${answer.status}: ${answer.text}`);
          return mbPerSecond(large.size, answer.ms);
        },
      };
    }),
  );
  const outcomes = await interleave(config.rounds, [
    {
      server: 'nginx, raw PUT',
      run: async () => {
        await syncDisks();
        const put = await putFile(nginx.uploadUrl('large.bin'), large.path, large.size, config.idleTimeoutMs);
        await rm(nginx.uploadedPath('large.bin'));
        return mbPerSecond(large.size, put.ms);
      },
    },
    ...stageRunners,
  ]);
  const nginxMedian = median(outcomes.get('nginx, raw PUT')?.samples ?? []);
  process.stdout.write(`Upload of ${large.size / 2 ** 20} MiB, ${config.rounds} rounds, median MB/s and × nginx:\n`);
  for (const [name, { samples, status, note }] of outcomes) {
    if (status !== 'measured') process.exitCode = 1;
    const value = median(samples);
    const figure =
      status === 'measured'
        ? `${value.toFixed(0).padStart(6)} MB/s  ${(value / nginxMedian).toFixed(2)} ×  [${samples.map((v) => v.toFixed(0)).join(', ')}]`
        : `FAILED: ${note}`;
    process.stdout.write(`  ${name.padEnd(26)} ${figure}\n`);
  }
} catch (error) {
  process.stderr.write(`the breakdown could not run: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
} finally {
  closeConnections();
  await Promise.allSettled(stops.map((stop) => stop()));
  await rm(root, { recursive: true, force: true });
}
