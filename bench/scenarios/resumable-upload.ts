import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as tus from 'tus-js-client';
import { type CloudVaultClient, tusUpload, upload } from '../lib/cloudvault-api.ts';
import { syncDisks } from '../lib/processes.ts';
import { formatMiB, mbPerSecond, median } from '../lib/stats.ts';
import { interleave, type ScenarioContext, type ScenarioResult } from './scenario.ts';

/** The chunk size docs/operations.md advises for tus clients on a good link. */
const CHUNK_BYTES = 64 * 1024 * 1024;
/** The least share of the multipart route's speed a tus upload must reach (decision 0025). */
const TARGET = 0.8;

/** One tus upload with tus-js-client, from disk; its duration in ms. */
function tusJsClientUpload(client: CloudVaultClient, filePath: string, name: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(createReadStream(filePath), {
      endpoint: `${client.url}/api/uploads`,
      headers: { Authorization: `Bearer ${client.token}` },
      metadata: { filename: name },
      chunkSize: CHUNK_BYTES,
      retryDelays: null,
      storeFingerprintForResuming: false,
      onSuccess: () => resolve(performance.now() - started),
      onError: reject,
    });
    upload.start();
  });
}

/**
 * The large file through tus (64 MiB PATCHes) against the multipart route, interleaved in
 * the same run: what resumability costs the server (docs/decisions/0025-resumable-uploads.md).
 * The judged figure sends both with the bench's one HTTP client; tus-js-client's own upload
 * is measured beside it, with what it costs on the client's side of these shared cores.
 */
export async function resumableUpload(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { large } = ctx.fixtures;
  const clientSeconds = new Map<string, number[]>();
  // Runs one upload after a sync, answering MB/s and noting this process's CPU time for it.
  const timed = (variant: string, send: (round: number) => Promise<number>) => async (round: number) => {
    await syncDisks();
    const cpuBefore = process.cpuUsage();
    const ms = await send(round);
    const cpu = process.cpuUsage(cpuBefore);
    clientSeconds.set(variant, [...(clientSeconds.get(variant) ?? []), (cpu.user + cpu.system) / 1e6]);
    return mbPerSecond(large.size, ms);
  };
  // At most 3 rounds: more 1 GiB uploads would push a loaded machine past the run's deadline.
  const outcomes = await interleave<number, 'tus' | 'tus-js-client' | 'multipart'>(Math.min(ctx.config.rounds, 3), [
    {
      server: 'tus',
      run: timed('tus', async (round) => (await tusUpload(ctx.client, large.path, large.size, `tus-${round}.bin`, CHUNK_BYTES)).ms),
    },
    {
      server: 'tus-js-client',
      run: timed('tus-js-client', (round) => tusJsClientUpload(ctx.client, large.path, `tus-js-client-${round}.bin`)),
    },
    {
      server: 'multipart',
      run: timed('multipart', async (round) => (await upload(ctx.client, large.path, large.size, `multipart-${round}.bin`)).ms),
    },
  ]);
  const speedOf = (variant: 'tus' | 'tus-js-client' | 'multipart') => {
    const outcome = outcomes.get(variant);
    return outcome?.status === 'measured' ? median(outcome.samples) : undefined;
  };
  const describe = (variant: 'tus-js-client' | 'multipart') => {
    const outcome = outcomes.get(variant);
    const cpu = clientSeconds.get(variant);
    return `${speedOf(variant)?.toFixed(0) ?? '—'} MB/s (samples ${outcome?.samples.map((sample) => sample.toFixed(0)).join(', ') ?? '—'}${outcome?.note ? `; ${outcome.note}` : ''}; client CPU ${cpu ? median(cpu).toFixed(2) : '—'} s)`;
  };
  const tus = outcomes.get('tus');
  const tusSpeed = speedOf('tus');
  const multipartSpeed = speedOf('multipart');
  const jsClientSpeed = speedOf('tus-js-client');
  const ratio = tusSpeed !== undefined && multipartSpeed ? tusSpeed / multipartSpeed : undefined;
  const tusCpu = clientSeconds.get('tus');
  return {
    id: 'resumable-upload',
    title: `tus upload of a ${formatMiB(large.size)} file in ${formatMiB(CHUNK_BYTES)} chunks`,
    compares: 'mbPerSecond',
    figures: tus ? [{ server: 'ours', samples: tus.samples, status: tus.status, note: tus.note, mbPerSecond: tusSpeed }] : [],
    targets:
      ratio === undefined
        ? []
        : [
            {
              description: `tus upload (issue 19), ${formatMiB(CHUNK_BYTES)} chunks, ≥ ${TARGET} × multipart`,
              measured: `${ratio.toFixed(2)} × multipart`,
              met: ratio >= TARGET,
            },
          ],
    notes: [
      `tus with the bench's HTTP client (creation, then 64 MiB PATCHes read in 1 MiB pieces; client CPU ${tusCpu ? median(tusCpu).toFixed(2) : '—'} s); multipart upload of the same file with the same client in the same rounds: ${describe('multipart')}.`,
      `tus / multipart: ${ratio?.toFixed(2) ?? '—'} (target ≥ ${TARGET}: ${ratio === undefined ? 'N/A' : ratio >= TARGET ? 'PASS' : 'MISS'}).`,
      `tus-js-client 4 (Node, fs.ReadStream, 64 MiB chunks): ${describe('tus-js-client')}, ${jsClientSpeed !== undefined && multipartSpeed ? (jsClientSpeed / multipartSpeed).toFixed(2) : '—'} of multipart: it reads in 64 KiB pieces and reports progress for each, which costs about twice the client CPU on the cores the server shares.`,
    ],
  };
}
