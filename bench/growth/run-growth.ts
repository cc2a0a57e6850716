import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPostgresDatabase } from '../../apps/server/test/helpers/test-database.ts';
import { type CloudVaultClient, register } from '../lib/cloudvault-api.ts';
import { startOurServer } from '../servers/ours.ts';
import { changeJournalGrowth, changeRetentionGrowth } from './change-journal-growth.ts';
import { consoleGrowth } from './console-growth.ts';
import type { GrowthContext } from './context.ts';
import { davGrowth } from './dav-growth.ts';
import { type GrowthConfig, loadGrowthConfig } from './growth-config.ts';
import { listingGrowth } from './listing-growth.ts';
import { formatSeries, seriesChart } from './report.ts';
import { searchGrowthPostgres, searchGrowthSqlite } from './search-growth.ts';
import type { GrowthSeries } from './series.ts';
import { trashGrowth } from './trash-growth.ts';
import { zipGrowth } from './zip-growth.ts';

const OPERATOR = 'operator@growth.example';
/** What this part started, stopped and removed by cleanUpGrowth (also on Ctrl-C). */
const started: Array<() => Promise<void>> = [];

export async function cleanUpGrowth(): Promise<void> {
  await Promise.allSettled(
    started
      .splice(0)
      .reverse()
      .map((stop) => stop()),
  );
}

/** The same server bundle on a throwaway PostgreSQL database, with an operator signed in; null when PostgreSQL is not reachable. */
async function startPostgresServer(
  repoRoot: string,
  root: string,
  config: GrowthConfig,
  warnings: string[],
): Promise<GrowthContext['postgres']> {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  try {
    database = await createPostgresDatabase(config.postgresAdminUrl);
  } catch (error) {
    warnings.push(`PostgreSQL at ${config.postgresAdminUrl} is not reachable (${(error as Error).message}): its series are NOT MEASURED.`);
    return null;
  }
  started.push(() => database.drop());
  const server = await startOurServer(repoRoot, root, { DATABASE_URL: database.url, SINGLE_NODE: '1', ADMIN_EMAILS: OPERATOR });
  started.push(() => server.stop());
  const operator = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Olga', lastName: 'Operator', email: OPERATOR, password: 'bench password' }),
  });
  if (operator.status !== 201) throw new Error(`registering the operator answered ${operator.status}`);
  const { token: operatorToken } = (await operator.json()) as { token: string };
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  await db.query('UPDATE users SET email_verified_at = $1 WHERE email = $2', [new Date().toISOString(), OPERATOR]);
  await db.end();
  const client: CloudVaultClient = await register(server.url, config.idleTimeoutMs);
  return { server, client, databaseUrl: database.url, operatorToken };
}

/**
 * "How cost grows" (bench/README.md): each series at growing sizes, plotted to bench/plots/<id>.svg
 * and saved with the figures in bench/results/growth.json. Answers the text to print and
 * whether a measurement broke.
 */
export async function runGrowth(repoRoot: string, log: (message: string) => void): Promise<{ text: string; failed: boolean }> {
  const config = loadGrowthConfig(process.env);
  const begun = Date.now();
  const warnings: string[] = [];
  const tempRoot = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-growth-'));
  started.push(() => rm(tempRoot, { recursive: true, force: true }));
  try {
    log(`growth series (${config.quick ? 'quick' : 'full'} mode): starting our server on SQLite and one on PostgreSQL`);
    const sqliteServer = await startOurServer(repoRoot, path.join(tempRoot, 'sqlite'));
    started.push(() => sqliteServer.stop());
    const ctx: GrowthContext = {
      config,
      sqlite: { server: sqliteServer, client: await register(sqliteServer.url, config.idleTimeoutMs) },
      postgres: await startPostgresServer(repoRoot, path.join(tempRoot, 'postgres'), config, warnings),
      log,
    };
    // The console runs before the PostgreSQL search seeds a million files: its first page counts each listed user's files.
    const runs: Array<[string, () => Promise<GrowthSeries | null>]> = [
      ['listing', () => listingGrowth(ctx)],
      ['dav-listing', () => davGrowth(ctx)],
      ['zip-memory', () => zipGrowth(ctx)],
      ['trash-empty', () => trashGrowth(ctx)],
      ['search-sqlite', () => searchGrowthSqlite(ctx)],
      ['console-users', () => consoleGrowth(ctx)],
      ['search-postgresql', () => searchGrowthPostgres(ctx)],
      ['change-journal', () => changeJournalGrowth(ctx)],
      ['change-retention', () => changeRetentionGrowth(ctx)],
    ];
    // A quick or partial run's plots go beside its results (git-ignored): bench/plots keeps the full run's, which bench/README.md links.
    const plotsDir = path.join(repoRoot, config.quick || config.only ? 'bench/results/plots' : 'bench/plots');
    await mkdir(plotsDir, { recursive: true });
    const done: GrowthSeries[] = [];
    const sections: string[] = [];
    let failed = false;
    const unknown = (config.only ?? []).filter((id) => !runs.some(([known]) => known === id));
    if (unknown.length > 0)
      throw new Error(`GROWTH_SERIES names no series ${unknown.join(', ')}; known: ${runs.map(([id]) => id).join(', ')}`);
    for (const [id, run] of runs) {
      if (config.only && !config.only.includes(id)) continue;
      try {
        const series = await run();
        if (!series) continue;
        const plot = path.join(plotsDir, `${series.id}.svg`);
        await writeFile(plot, seriesChart(series));
        done.push(series);
        sections.push(formatSeries(series, path.relative(repoRoot, plot)));
      } catch (error) {
        failed = true;
        warnings.push(`${id} FAILED: ${(error as Error).message}`);
        log(`${id} failed: ${(error as Error).stack}`);
      }
    }
    const minutes = (Date.now() - begun) / 60_000;
    const [load] = os.loadavg() as [number];
    const resultsFile = path.join(repoRoot, 'bench/results/growth.json');
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(
      resultsFile,
      `${JSON.stringify({ startedAt: new Date(begun).toISOString(), minutes, loadAverageAtEnd: load, config, series: done, warnings }, null, 2)}\n`,
    );
    const header = `How cost grows (${config.quick ? 'quick' : 'full'} mode, ${minutes.toFixed(1)} min, load ${load.toFixed(2)} on ${os.cpus().length} cores; time per request on 127.0.0.1)`;
    const text = [
      header,
      ...sections,
      ...warnings.map((warning) => `WARNING: ${warning}`),
      `JSON: ${path.relative(repoRoot, resultsFile)}`,
    ].join('\n\n');
    return { text, failed };
  } finally {
    await cleanUpGrowth();
  }
}
