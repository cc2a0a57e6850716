import { rm, stat } from 'node:fs/promises';
import { upload } from '../lib/cloudvault-api.ts';
import { putFile } from '../lib/http-client.ts';
import { syncDisks } from '../lib/processes.ts';
import { formatMiB, mbPerSecond, median } from '../lib/stats.ts';
import { interleave, type ScenarioContext, type ScenarioResult } from './scenario.ts';

/**
 * The large file sent from disk: to ours as multipart (no folderId, one file part), to
 * the ceilings as a raw PUT. Returns the id of our first stored copy for the download.
 */
export async function largeUpload(ctx: ScenarioContext): Promise<{ result: ScenarioResult; fileId: string | undefined }> {
  const { large } = ctx.fixtures;
  const timeout = ctx.config.idleTimeoutMs;
  let fileId: string | undefined;
  const outcomes = await interleave(ctx.config.rounds, [
    {
      server: 'ours',
      run: async () => {
        await syncDisks();
        const stored = await upload(ctx.client, large.path, large.size, large.name);
        fileId ??= stored.id;
        return mbPerSecond(large.size, stored.ms);
      },
    },
    ...ctx.ceilings.map((ceiling) => ({
      server: ceiling.name,
      run: async (round: number) => {
        await syncDisks();
        const name = `large-${round}.bin`;
        const response = await putFile(ceiling.uploadUrl(name), large.path, large.size, timeout);
        if (response.status !== 201 && response.status !== 204) throw new Error(`PUT answered ${response.status}: ${response.text.slice(0, 200)}`);
        const { size } = await stat(ceiling.uploadedPath(name));
        if (size !== large.size) throw new Error(`PUT stored ${size} bytes of ${large.size}`);
        await rm(ceiling.uploadedPath(name));
        return mbPerSecond(large.size, response.ms);
      },
    })),
  ]);
  return {
    fileId,
    result: {
      id: 'large-upload',
      title: `Upload of a ${formatMiB(large.size)} file`,
      compares: 'mbPerSecond',
      figures: [...outcomes].map(([server, outcome]) => ({ server, ...outcome, mbPerSecond: median(outcome.samples) })),
      notes: [
        'ours: multipart from a client streaming the file from disk; ceilings: raw PUT of the same file.',
        'ours fsyncs each blob before answering; nginx and the bare server answer before write-back (every upload starts after a `sync`).',
      ],
    },
  };
}
