import { download } from '../lib/cloudvault-api.ts';
import { type Download, fastGet } from '../lib/fast-get.ts';
import { formatMiB, mbPerSecond, median } from '../lib/stats.ts';
import { interleave, type ScenarioContext, type ScenarioResult, Unavailable } from './scenario.ts';

/**
 * The large file read back and discarded, bytes counted, from the page cache for all: each
 * server sends its copy once before the timed rounds, as ours stored the upload past the
 * cache (O_DIRECT) while the ceilings' file was just written by the fixtures.
 */
export async function largeDownload(ctx: ScenarioContext, fileId: string | undefined): Promise<ScenarioResult> {
  const { large } = ctx.fixtures;
  const check = (response: Download) => {
    if (response.status !== 200 || response.bytes !== large.size)
      throw new Error(`answered ${response.status} with ${response.bytes} of ${large.size} bytes`);
    return mbPerSecond(response.bytes, response.ms);
  };
  const downloads = [
    {
      server: 'ours' as const,
      run: async () => {
        if (!fileId) throw new Unavailable('the upload scenario stored no file to download');
        return check(await download(ctx.client, `/api/files/${fileId}/download`));
      },
    },
    ...ctx.ceilings.map((ceiling) => ({
      server: ceiling.name,
      run: async () => check(await fastGet(ceiling.fileUrl(large.name), {}, ctx.config.idleTimeoutMs)),
    })),
  ];
  await interleave(1, downloads);
  const outcomes = await interleave(ctx.config.rounds, downloads);
  return {
    id: 'large-download',
    title: `Download of the ${formatMiB(large.size)} file`,
    compares: 'mbPerSecond',
    figures: [...outcomes].map(([server, outcome]) => ({ server, ...outcome, mbPerSecond: median(outcome.samples) })),
    notes: [
      'ours: GET /api/files/:id/download; ceilings: GET of the source file (nginx with sendfile).',
      'One untimed download per server first, so every server reads from the page cache.',
    ],
  };
}
