import { open, rm, stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { upload } from '../lib/cloudvault-api.ts';
import { putFile } from '../lib/http-client.ts';
import { syncDisks } from '../lib/processes.ts';
import { formatMiB, mbPerSecond, median } from '../lib/stats.ts';
import { interleave, type ScenarioContext, type ScenarioResult } from './scenario.ts';

/** One upload timed twice: when the server answered, and once the file is on disk. */
interface Timing {
  rawMbPerSecond: number;
  durableMbPerSecond: number;
}

/** fsync of a ceiling's stored file: what ours does before it answers, done for nginx by the client. */
async function syncFile(filePath: string): Promise<void> {
  const file = await open(filePath, 'r');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * The large file sent from disk: to ours as multipart (no folderId, one file part), to
 * the ceilings as a raw PUT. Two results: durable (the ceilings' PUT and an fsync of the
 * file it wrote, timed together, since ours fsyncs before answering; the main figure) and
 * raw (the ceilings' PUT alone, against the same uploads of ours). Returns the id of our
 * first stored copy for the download.
 */
export async function largeUpload(
  ctx: ScenarioContext,
): Promise<{ result: ScenarioResult; raw: ScenarioResult; fileId: string | undefined }> {
  const { large } = ctx.fixtures;
  const timeout = ctx.config.idleTimeoutMs;
  let fileId: string | undefined;
  const outcomes = await interleave<Timing>(ctx.config.rounds, [
    {
      server: 'ours',
      run: async () => {
        await syncDisks();
        const stored = await upload(ctx.client, large.path, large.size, large.name);
        fileId ??= stored.id;
        const speed = mbPerSecond(large.size, stored.ms);
        return { rawMbPerSecond: speed, durableMbPerSecond: speed };
      },
    },
    ...ctx.ceilings.map((ceiling) => ({
      server: ceiling.name,
      run: async (round: number) => {
        await syncDisks();
        const name = `large-${round}.bin`;
        const started = performance.now();
        const response = await putFile(ceiling.uploadUrl(name), large.path, large.size, timeout);
        if (response.status !== 201 && response.status !== 204)
          throw new Error(`PUT answered ${response.status}: ${response.text.slice(0, 200)}`);
        await syncFile(ceiling.uploadedPath(name));
        const durableMs = performance.now() - started;
        const { size } = await stat(ceiling.uploadedPath(name));
        if (size !== large.size) throw new Error(`PUT stored ${size} bytes of ${large.size}`);
        await rm(ceiling.uploadedPath(name));
        return { rawMbPerSecond: mbPerSecond(large.size, response.ms), durableMbPerSecond: mbPerSecond(large.size, durableMs) };
      },
    })),
  ]);
  const figures = (speed: keyof Timing) =>
    [...outcomes].map(([server, outcome]) => {
      const samples = outcome.samples.map((timing) => timing[speed]);
      return { server, status: outcome.status, note: outcome.note, samples, mbPerSecond: median(samples) };
    });
  return {
    fileId,
    result: {
      id: 'large-upload',
      title: `Upload of a ${formatMiB(large.size)} file, durable`,
      compares: 'mbPerSecond',
      figures: figures('durableMbPerSecond'),
      notes: [
        'ours: multipart from a client streaming the file from disk; ceilings: raw PUT of the same file.',
        'durable: ours fsyncs each blob before answering; for the ceilings the time runs on to the end of an fsync of the file they wrote (every upload starts after a `sync`).',
      ],
    },
    raw: {
      id: 'large-upload-raw',
      title: `Upload of a ${formatMiB(large.size)} file, raw`,
      compares: 'mbPerSecond',
      figures: figures('rawMbPerSecond'),
      notes: ['raw: the same uploads, the ceilings timed to their answer, before write-back; ours still fsyncs.'],
    },
  };
}
