import type { BenchConfig } from '../config.ts';
import type { CloudVaultClient } from '../lib/cloudvault-api.ts';
import type { Fixtures } from '../lib/fixtures.ts';
import type { OurServer } from '../servers/ours.ts';
import { percentile } from '../lib/stats.ts';
import type { Ceiling, ServerName } from '../servers/server.ts';

export interface ScenarioContext {
  config: BenchConfig;
  ours: OurServer;
  client: CloudVaultClient;
  /** nginx (when installed) and the bare Node server. */
  ceilings: Ceiling[];
  fixtures: Fixtures;
}

/** One server's figure in one scenario. */
export interface ServerFigure {
  server: ServerName;
  status: 'measured' | 'not available' | 'failed';
  /** Throughput: median over the rounds. */
  mbPerSecond?: number;
  /** Requests answered per second under concurrent load: median over the rounds. */
  requestsPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  /** Raw samples: MB/s or requests/s per round, or milliseconds per request. */
  samples: number[];
  /** Bytes of one response, where that varies by server (the zip). */
  bytes?: number;
  /** Why it is not measured, or what to know about the figure. */
  note?: string;
}

export interface ScenarioResult {
  id: string;
  title: string;
  /** Which figure the ratios compare: throughput or requests/s (higher is better), or p99 latency. */
  compares: 'mbPerSecond' | 'p99Ms' | 'requestsPerSecond';
  figures: ServerFigure[];
  notes: string[];
  /** Targets the scenario judges itself (scores, sizes), reported with the run's others. */
  targets?: Target[];
}

export interface Target {
  description: string;
  measured: string;
  met: boolean;
}

/** A route that does not exist yet (404, 405, 501): reported, not a failure of the run. */
export class Unavailable extends Error {}

/**
 * Runs each server's measurement `rounds` times, servers interleaved within a round, so
 * slow drift of the machine (page cache, write-back, CPU frequency) hits all alike. A
 * server that fails once is not tried again and is reported with the error.
 */
export async function interleave<T, Name extends string = ServerName>(
  rounds: number,
  runners: { server: Name; run: (round: number) => Promise<T> }[],
): Promise<Map<Name, { samples: T[]; status: ServerFigure['status']; note?: string }>> {
  const outcomes = new Map(
    runners.map((runner) => [
      runner.server,
      { samples: [] as T[], status: 'measured' as ServerFigure['status'], note: undefined as string | undefined },
    ]),
  );
  for (let round = 1; round <= rounds; round++) {
    for (const runner of runners) {
      const outcome = outcomes.get(runner.server)!;
      if (outcome.status !== 'measured') continue;
      try {
        outcome.samples.push(await runner.run(round));
      } catch (error) {
        outcome.status = error instanceof Unavailable ? 'not available' : 'failed';
        outcome.note = (error as Error).message;
      }
    }
  }
  return outcomes;
}

/** Each server's figure from an interleave of per-round request latencies (ms): every sample, its p50 and p99. */
export function latencyFigures(
  outcomes: Map<ServerName, { samples: number[][]; status: ServerFigure['status']; note?: string }>,
): ServerFigure[] {
  return [...outcomes].map(([server, outcome]) => {
    const latencies = outcome.samples.flat();
    return {
      server,
      status: outcome.status,
      note: outcome.note,
      samples: latencies,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
    };
  });
}
