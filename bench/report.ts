import type { BenchConfig } from './config.ts';
import type { Memory } from './lib/processes.ts';
import type { ScenarioResult, ServerFigure } from './scenarios/scenario.ts';
import type { ServerName } from './servers/server.ts';

/** A scenario as reported: its figures, ratios to each ceiling, and every server's VmHWM after it. */
export interface ReportedScenario extends ScenarioResult {
  /** Ours as a fraction of the ceiling's speed (for latency: ceiling p99 / our p99); higher is better. */
  ratios: { nginx: number | null; bareNode: number | null; bareFastify?: number | null };
  /** VmHWM after the scenario: lifetime peaks, so each includes every scenario before it. */
  peakRssAfter: Partial<Record<ServerName, number | null>>;
}

export interface Goal {
  /** The scenario judged, or 'memory' for the peak RSS during the large transfers. */
  scenarioId: string;
  description: string;
  /** The measured value the goal is judged on, formatted. */
  measured: string;
  verdict: 'PASS' | 'MISS' | 'N/A';
  why?: string;
}

export interface BenchReport {
  mode: 'quick' | 'full';
  startedAt: string;
  durationSeconds: number;
  machine: { cpus: number; node: string; nginx: string | null; loadAverageAtStart: number };
  config: BenchConfig;
  /** Right after start-up, before any request of the benchmark. */
  baselineMemory: Partial<Record<ServerName, Memory | null>>;
  scenarios: ReportedScenario[];
  goals: Goal[];
  warnings: string[];
}

const headline = (figure: ServerFigure | undefined, compares: ScenarioResult['compares']) =>
  figure?.status === 'measured' ? (figure[compares] ?? null) : null;

/** Speed of ours relative to a ceiling, so that 1.0 means "as fast" whatever the unit. */
export function ratio(scenario: ScenarioResult, ceiling: ServerName): number | null {
  const ours = headline(
    scenario.figures.find((figure) => figure.server === 'ours'),
    scenario.compares,
  );
  const other = headline(
    scenario.figures.find((figure) => figure.server === ceiling),
    scenario.compares,
  );
  if (ours === null || other === null || !Number.isFinite(ours) || !Number.isFinite(other) || ours === 0) return null;
  return scenario.compares === 'p99Ms' ? other / ours : ours / other;
}

const MB = 1e6;
const mb = (bytes: number | null | undefined) => (bytes == null ? '—' : `${(bytes / MB).toFixed(0)} MB`);
const fixed = (value: number | undefined, digits: number) => (value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits));

/** The issue's targets, as ratios to nginx in this same run, plus the absolute ones. */
export function judgeGoals(scenarios: ReportedScenario[], peakDuringLarge: number | null, largeLabel: string): Goal[] {
  const byId = (id: string) => scenarios.find((scenario) => scenario.id === id);
  const ratioGoal = (id: string, minimum: number, label: string, ceiling: 'nginx' | 'bareFastify' = 'nginx'): Goal => {
    const scenario = byId(id);
    const value = scenario?.ratios[ceiling] ?? null;
    const ours = scenario?.figures.find((figure) => figure.server === 'ours');
    const ceilingName = ceiling === 'nginx' ? 'nginx' : 'bare Fastify';
    const description = `${label}: ours ≥ ${minimum} × ${ceilingName}`;
    if (value === null) {
      const why = ours && ours.status !== 'measured' ? `ours ${ours.status}: ${ours.note ?? ''}` : `${ceilingName} not measured`;
      return { scenarioId: id, description, measured: '—', verdict: 'N/A', why };
    }
    return { scenarioId: id, description, measured: `${value.toFixed(2)} × ${ceilingName}`, verdict: value >= minimum ? 'PASS' : 'MISS' };
  };
  const listing = byId('listing')?.figures.find((figure) => figure.server === 'ours');
  const memory = `Server peak RSS during the ${largeLabel} transfers < 150 MB`;
  const latency = 'Folder listing: ours p99 < 15 ms';
  const scenarioTargets = scenarios.flatMap((scenario) =>
    (scenario.targets ?? []).map((target): Goal => ({
      scenarioId: scenario.id,
      description: target.description,
      measured: target.measured,
      verdict: target.met ? 'PASS' : 'MISS',
    })),
  );
  return [
    ratioGoal('large-upload', 0.9, 'Upload, durable'),
    ratioGoal('large-upload-raw', 0.6, 'Upload, raw'),
    ratioGoal('large-download', 0.9, 'Download'),
    ratioGoal('folder-zip', 0.8, 'Folder zip'),
    peakDuringLarge === null
      ? { scenarioId: 'memory', description: memory, measured: '—', verdict: 'N/A', why: 'not read' }
      : { scenarioId: 'memory', description: memory, measured: mb(peakDuringLarge), verdict: peakDuringLarge < 150 * MB ? 'PASS' : 'MISS' },
    listing?.status === 'measured' && listing.p99Ms !== undefined
      ? {
          scenarioId: 'listing',
          description: latency,
          measured: `${listing.p99Ms.toFixed(1)} ms`,
          verdict: listing.p99Ms < 15 ? 'PASS' : 'MISS',
        }
      : { scenarioId: 'listing', description: latency, measured: '—', verdict: 'N/A', why: listing?.note ?? 'not measured' },
    ratioGoal('concurrent-listing', 0.5, 'Small folder listing, many connections', 'bareFastify'),
    ...scenarioTargets,
  ];
}

function describe(figure: ServerFigure, compares: ScenarioResult['compares']): string {
  if (figure.status !== 'measured') return `${figure.status.toUpperCase()}: ${figure.note ?? ''}`;
  if (compares === 'p99Ms') return `p50 ${fixed(figure.p50Ms, 1)} ms, p99 ${fixed(figure.p99Ms, 1)} ms`;
  if (compares === 'requestsPerSecond') return `${fixed(figure.requestsPerSecond, 0)} requests/s, p99 ${fixed(figure.p99Ms, 1)} ms`;
  const latency = figure.p99Ms === undefined ? '' : `, p99 ${fixed(figure.p99Ms, 0)} ms`;
  const size = figure.bytes === undefined ? '' : ` (${(figure.bytes / MB).toFixed(1)} MB zip)`;
  return `${fixed(figure.mbPerSecond, 0)} MB/s${latency}${size}`;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** The human-readable report: one row per server per scenario, then the targets. */
export function formatReport(report: BenchReport): string {
  const rows = [['Scenario', 'Server', 'Result', '× nginx', '× bare', 'Target', 'Peak RSS']];
  for (const scenario of report.scenarios) {
    scenario.figures.forEach((figure, index) => {
      const ours = figure.server === 'ours';
      const goal = ours ? report.goals.find((candidate) => candidate.scenarioId === scenario.id) : undefined;
      rows.push([
        index === 0 ? scenario.title : '',
        figure.server,
        describe(figure, scenario.compares),
        ours ? fixed(scenario.ratios.nginx ?? undefined, 2) : '',
        ours ? fixed(scenario.ratios.bareFastify ?? scenario.ratios.bareNode ?? undefined, 2) : '',
        goal ? `${goal.verdict} (${goal.description.replace(/^.*: /, '')})` : '',
        mb(scenario.peakRssAfter[figure.server]),
      ]);
    });
  }
  const baseline = Object.entries(report.baselineMemory)
    .map(([server, memory]) => `${server} ${mb(memory?.rssBytes)}`)
    .join(', ');
  const out = [
    `CloudVault benchmark (${report.mode}${report.mode === 'quick' ? ': BENCH_QUICK=1, shrunk sizes' : ''}), ${report.machine.cpus} cores, Node ${report.machine.node}, nginx ${report.machine.nginx ?? 'NOT INSTALLED'}, load ${report.machine.loadAverageAtStart.toFixed(2)} at start, ${report.durationSeconds.toFixed(0)} s`,
    '',
    table(rows),
    '',
    'MB = 10^6 bytes. "× nginx" / "× bare": ours as a fraction of that server\'s speed (throughput ratio; for the listing, its p99 / our p99), 1.00 = as fast; "× bare" is the bare Fastify route where it ran, else the bare Node server.',
    `Peak RSS: VmHWM of the serving process(es) after each scenario (a lifetime peak, so it includes earlier scenarios); nginx sums its workers. Baseline RSS right after start-up: ${baseline}.`,
    '',
    'Targets (issue 22, ratios to a ceiling in this run; the web pages last):',
    ...report.goals.map((goal) => `  ${goal.verdict.padEnd(4)} ${goal.description}: ${goal.measured}${goal.why ? ` (${goal.why})` : ''}`),
    '',
    'Notes:',
    ...report.scenarios.flatMap((scenario) => scenario.notes.map((note) => `  [${scenario.id}] ${note}`)),
  ];
  if (report.warnings.length > 0) out.push('', 'WARNINGS:', ...report.warnings.map((warning) => `  !! ${warning}`));
  return out.join('\n');
}
