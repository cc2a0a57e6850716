import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BENCH_PASSWORD, register } from '../lib/cloudvault-api.ts';
import { closeConnections } from '../lib/http-client.ts';
import { SERVER_BUNDLE, SERVER_NODE_FLAGS } from '../../scripts/ensure-builds.mjs';
import { startOurServer } from '../servers/ours.ts';
import { changeLatency } from './change-latency.ts';
import { type Device, login } from './cloudvault-cli.ts';
import { largeFile } from './large-file.ts';
import { setUpRclone } from './rclone.ts';
import { smallFiles } from './small-files.ts';
import { loadSyncConfig } from './sync-config.ts';
import type { SyncContext, SyncFigure, SyncResult } from './sync-scenario.ts';
import { unchangedPass } from './unchanged-pass.ts';

/** What this group started, stopped and removed by cleanUpSync (also on Ctrl-C). */
const started: Array<() => Promise<void>> = [];

export async function cleanUpSync(): Promise<void> {
  closeConnections();
  await Promise.allSettled(
    started
      .splice(0)
      .reverse()
      .map((stop) => stop()),
  );
}

const SCENARIOS: Array<[string, (ctx: SyncContext) => Promise<SyncResult | SyncResult[]>]> = [
  ['small-files', smallFiles],
  ['large-file', largeFile],
  ['unchanged-pass', unchangedPass],
  ['change-latency', changeLatency],
];

const MB = 1e6;

function describe(figure: SyncFigure): string {
  if (figure.status !== 'measured') return `${figure.status.toUpperCase()}: ${(figure.note ?? '').split('\n')[0]}`;
  const digits = figure.unit === 's' ? 2 : 0;
  const samples = figure.samples.map((sample) => sample.toFixed(digits)).join(', ');
  const rss = figure.peakRssBytes === undefined ? '' : `, peak RSS ${(figure.peakRssBytes / MB).toFixed(0)} MB`;
  return `${figure.value?.toFixed(digits)} ${figure.unit} (median of ${samples})${rss}`;
}

/** The group's text: each figure, then every target with its verdict, the notes and warnings. */
function formatSync(results: SyncResult[], warnings: string[], header: string): string {
  const lines = [header, ''];
  for (const result of results) {
    lines.push(result.title);
    for (const figure of result.figures) lines.push(`  ${figure.who.padEnd(36)} ${describe(figure)}`);
  }
  lines.push('', 'Targets (issue 39, ratios to a ceiling in this run):');
  for (const target of results.flatMap((result) => result.targets))
    lines.push(
      `  ${target.verdict.padEnd(4)} ${target.description}: ${target.measured}${target.why ? ` (${target.why.split('\n')[0]})` : ''}`,
    );
  lines.push('', 'Notes:', ...results.flatMap((result) => result.notes.map((note) => `  [${result.id}] ${note}`)));
  const failures = results.flatMap((result) =>
    result.figures.filter((figure) => figure.status === 'failed').map((figure) => `${result.id}: ${figure.who} FAILED: ${figure.note}`),
  );
  const all = [...warnings, ...failures];
  if (all.length > 0) lines.push('', 'WARNINGS:', ...all.map((warning) => `  !! ${warning}`));
  return lines.join('\n');
}

/**
 * The sync client's scenarios (issue 39; bench/README.md, "The sync client"): our server
 * bundle on SQLite and local disk, the `cloudvault` command in child processes against it,
 * rclone on our WebDAV and the browser's routes as ceilings. SYNC_SCENARIOS=small-files,…
 * runs only those. Writes bench/results/sync.json; answers the text to print and whether a
 * measurement broke.
 */
export async function runSync(repoRoot: string, log: (message: string) => void): Promise<{ text: string; failed: boolean }> {
  const config = loadSyncConfig(process.env);
  const begun = Date.now();
  const chosen = process.env.SYNC_SCENARIOS?.split(',').map((id) => id.trim());
  const unknown = (chosen ?? []).filter((id) => !SCENARIOS.some(([known]) => known === id));
  if (unknown.length > 0)
    throw new Error(`SYNC_SCENARIOS names no scenario ${unknown.join(', ')}; known: ${SCENARIOS.map(([id]) => id).join(', ')}`);
  const warnings: string[] = [];
  const [loadAverageAtStart] = os.loadavg() as [number];
  if (loadAverageAtStart > 1)
    warnings.push(`The machine was busy when the sync group started (load ${loadAverageAtStart.toFixed(2)}): figures are noisy.`);
  const root = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-bench-sync-'));
  started.push(() => rm(root, { recursive: true, force: true }));
  try {
    log(`sync client (${config.quick ? 'quick' : 'full'} mode): starting our server on SQLite and local disk`);
    // SYNC_SERVER_CPU_PROF_DIR=DIR: the server writes a V8 CPU profile there when it stops, to see its side of a transfer.
    const serverProfile = process.env.SYNC_SERVER_CPU_PROF_DIR;
    const server = await startOurServer(
      repoRoot,
      path.join(root, 'server'),
      {},
      SERVER_BUNDLE,
      serverProfile ? [...SERVER_NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${path.resolve(serverProfile)}`] : SERVER_NODE_FLAGS,
    );
    started.push(() => server.stop());
    const client = await register(server.url, config.idleTimeoutMs);
    const device: Device = { name: 'bench-a', configDir: path.join(root, 'device-a') };
    const account = { url: server.url, email: client.email, password: BENCH_PASSWORD };
    const rclone = await setUpRclone(account, config.rcloneTransfers, config.commandTimeoutMs);
    if (!rclone) warnings.push('rclone is NOT INSTALLED (apt-get install -y rclone): its ceiling is NOT MEASURED.');
    const ctx: SyncContext = { config, server, client, password: BENCH_PASSWORD, device, rclone, root, log };
    const results: SyncResult[] = [];
    let failed = false;
    try {
      await login(device, account, config.commandTimeoutMs);
    } catch (error) {
      failed = true;
      warnings.push(`the client could not sign in (its figures fail; the ceilings are measured): ${(error as Error).message}`);
    }
    for (const [id, run] of SCENARIOS) {
      if (chosen && !chosen.includes(id)) continue;
      try {
        results.push(...[await run(ctx)].flat());
      } catch (error) {
        failed = true;
        warnings.push(`${id} FAILED: ${(error as Error).message}`);
        log(`sync ${id} failed: ${(error as Error).stack}`);
      }
    }
    if (results.some((result) => result.figures.some((figure) => figure.status === 'failed'))) failed = true;
    const serverOutput = server.output().trim();
    if (serverOutput) warnings.push(`our server logged (LOG_LEVEL=warn), last lines:\n${serverOutput.split('\n').slice(-10).join('\n')}`);
    const seconds = (Date.now() - begun) / 1000;
    const header = `CloudVault sync client (${config.quick ? 'quick: BENCH_QUICK=1, shrunk sizes' : 'full'}), ${os.cpus().length} cores, Node ${process.version}, ${rclone?.version ?? 'rclone NOT INSTALLED'}, load ${loadAverageAtStart.toFixed(2)} at start, ${seconds.toFixed(0)} s`;
    const resultsFile = path.join(repoRoot, 'bench/results/sync.json');
    await mkdir(path.dirname(resultsFile), { recursive: true });
    const rounded = (_key: string, value: unknown) =>
      typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value;
    await writeFile(
      resultsFile,
      `${JSON.stringify({ startedAt: new Date(begun).toISOString(), durationSeconds: seconds, loadAverageAtStart, config, results, warnings }, rounded, 2)}\n`,
    );
    return { text: `${formatSync(results, warnings, header)}\n\nJSON: ${path.relative(repoRoot, resultsFile)}`, failed };
  } finally {
    await cleanUpSync();
  }
}
