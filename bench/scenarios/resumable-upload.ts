import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as tus from 'tus-js-client';
import { type CloudVaultClient, upload } from '../lib/cloudvault-api.ts';
import { syncDisks } from '../lib/processes.ts';
import { formatMiB, mbPerSecond, median } from '../lib/stats.ts';
import { interleave, type ScenarioContext, type ScenarioResult } from './scenario.ts';

/** The chunk size README.md advises for tus clients on a good link. */
const CHUNK_BYTES = 64 * 1024 * 1024;
/** What the README's resumable uploads section promises against the multipart route. */
const TARGET = 0.8;

/** One tus upload with the real client, from disk; its duration in ms. */
function tusUpload(client: CloudVaultClient, filePath: string, name: string): Promise<number> {
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
 * the same run: what resumability costs (docs/decisions/0025-resumable-uploads.md).
 */
export async function resumableUpload(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { large } = ctx.fixtures;
  // At most 3 rounds: ten 1 GiB uploads more would push a loaded machine past the run's deadline.
  const outcomes = await interleave<number, 'tus' | 'multipart'>(Math.min(ctx.config.rounds, 3), [
    {
      server: 'tus',
      run: async (round) => {
        await syncDisks();
        return mbPerSecond(large.size, await tusUpload(ctx.client, large.path, `tus-${round}.bin`));
      },
    },
    {
      server: 'multipart',
      run: async (round) => {
        await syncDisks();
        return mbPerSecond(large.size, (await upload(ctx.client, large.path, large.size, `multipart-${round}.bin`)).ms);
      },
    },
  ]);
  const tus = outcomes.get('tus');
  const multipart = outcomes.get('multipart');
  const tusSpeed = tus?.status === 'measured' ? median(tus.samples) : undefined;
  const multipartSpeed = multipart?.status === 'measured' ? median(multipart.samples) : undefined;
  const ratio = tusSpeed !== undefined && multipartSpeed ? tusSpeed / multipartSpeed : undefined;
  return {
    id: 'resumable-upload',
    title: `tus upload of a ${formatMiB(large.size)} file in ${formatMiB(CHUNK_BYTES)} chunks`,
    compares: 'mbPerSecond',
    figures: tus ? [{ server: 'ours', samples: tus.samples, status: tus.status, note: tus.note, mbPerSecond: tusSpeed }] : [],
    notes: [
      `multipart upload of the same file in the same rounds: ${multipartSpeed?.toFixed(0) ?? '—'} MB/s (samples ${multipart?.samples.map((sample) => sample.toFixed(0)).join(', ') ?? '—'}${multipart?.note ? `; ${multipart.note}` : ''}).`,
      `tus / multipart: ${ratio?.toFixed(2) ?? '—'} (target ≥ ${TARGET}: ${ratio === undefined ? 'N/A' : ratio >= TARGET ? 'PASS' : 'MISS'}).`,
    ],
  };
}
