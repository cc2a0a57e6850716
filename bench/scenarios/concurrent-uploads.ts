import { rm } from 'node:fs/promises';
import { upload } from '../lib/cloudvault-api.ts';
import { putFile } from '../lib/http-client.ts';
import { syncDisks } from '../lib/processes.ts';
import { formatMiB, mbPerSecond, median, percentile } from '../lib/stats.ts';
import { interleave, type ScenarioContext, type ScenarioResult } from './scenario.ts';

interface Round {
  mbPerSecond: number;
  latenciesMs: number[];
}

/** All small files at once: total MB/s over the wall time, and each upload's own latency. */
export async function concurrentUploads(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { small } = ctx.fixtures;
  const totalBytes = small.reduce((sum, file) => sum + file.size, 0);
  const burst = async (send: (file: (typeof small)[number]) => Promise<number>): Promise<Round> => {
    await syncDisks();
    const started = performance.now();
    const latenciesMs = await Promise.all(small.map(send));
    return { mbPerSecond: mbPerSecond(totalBytes, performance.now() - started), latenciesMs };
  };
  const outcomes = await interleave<Round>(ctx.config.rounds, [
    { server: 'ours', run: () => burst(async (file) => (await upload(ctx.client, file.path, file.size, file.name)).ms) },
    ...ctx.ceilings.map((ceiling) => ({
      server: ceiling.name,
      run: async (round: number) => {
        const name = (file: (typeof small)[number]) => `r${round}-${file.name}`;
        const result = await burst(async (file) => {
          const response = await putFile(ceiling.uploadUrl(name(file)), file.path, file.size, ctx.config.idleTimeoutMs);
          if (response.status !== 201 && response.status !== 204)
            throw new Error(`PUT answered ${response.status}: ${response.text.slice(0, 200)}`);
          return response.ms;
        });
        await Promise.all(small.map((file) => rm(ceiling.uploadedPath(name(file)))));
        return result;
      },
    })),
  ]);
  return {
    id: 'concurrent-uploads',
    title: `${small.length} concurrent uploads of ${formatMiB(small[0]?.size ?? 0)}`,
    compares: 'mbPerSecond',
    figures: [...outcomes].map(([server, outcome]) => {
      const latencies = outcome.samples.flatMap((round) => round.latenciesMs);
      return {
        server,
        status: outcome.status,
        note: outcome.note,
        samples: outcome.samples.map((round) => round.mbPerSecond),
        mbPerSecond: median(outcome.samples.map((round) => round.mbPerSecond)),
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
      };
    }),
    notes: [`Total MB/s is the median over ${ctx.config.rounds} round(s); p99 is over every upload of every round.`],
  };
}
