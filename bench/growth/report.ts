import { type LineChart, renderLineChart } from '../lib/svg-chart.ts';
import type { GrowthSeries } from './series.ts';

const Y_LABELS: Record<GrowthSeries['plot'], string> = {
  perItemUs: 'µs per item (p50 ÷ size)',
  p99Ms: 'p99 ms per request',
  peakRssMiB: 'MiB above RSS before',
  bytesPerItem: 'bytes per item (rows and indexes)',
};

/** The series' plot: what its `plot` names, against the size on a log scale. */
export function seriesChart(series: GrowthSeries): string {
  const chart: LineChart = {
    title: series.title,
    xLabel: series.sizeLabel,
    yLabel: Y_LABELS[series.plot],
    lines: series.lines.map((line) => ({
      name: line.name,
      points: line.points.map((point) => ({ x: point.size, y: point[series.plot] ?? 0 })),
    })),
    guide: series.plot === 'p99Ms' && series.targetMs ? { y: series.targetMs, label: `target ${series.targetMs} ms` } : undefined,
  };
  return renderLineChart(chart);
}

const figure = (value: number | undefined, digits = 1) => (value === undefined ? '' : value.toFixed(digits));

/** The series as a plain-text table for stdout. */
export function formatSeries(series: GrowthSeries, plotPath: string): string {
  const rows = [['', series.sizeLabel, 'p50 ms', 'p99 ms', 'µs/item', 'peak MiB', 'n', 'note']];
  for (const line of series.lines) {
    for (const point of line.points) {
      rows.push([
        line.name,
        point.size.toLocaleString('en'),
        figure(point.p50Ms),
        figure(point.p99Ms),
        figure(point.perItemUs, 2),
        figure(point.peakRssMiB),
        String(point.requests),
        point.note ?? '',
      ]);
    }
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const table = rows.map((row) =>
    `  ${row.map((cell, column) => (column >= 1 && column <= 6 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ')}`.trimEnd(),
  );
  return [`${series.title} (plot: ${plotPath})`, ...table, ...series.notes.map((note) => `  - ${note}`)].join('\n');
}
