/** One line of a chart: points in x order. */
export interface ChartLine {
  name: string;
  points: Array<{ x: number; y: number }>;
}

export interface LineChart {
  title: string;
  xLabel: string;
  yLabel: string;
  lines: ChartLine[];
  /** A horizontal dashed line, e.g. a target. */
  guide?: { y: number; label: string };
}

const WIDTH = 720;
const HEIGHT = 400;
const MARGIN = { top: 40, right: 170, bottom: 56, left: 76 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
const compact = (value: number) => (value >= 1e6 ? `${value / 1e6}M` : value >= 1e3 ? `${value / 1e3}k` : String(value));
const tickText = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toPrecision(2);

/** Rounded ticks from 0 to at least `max`. */
function linearTicks(max: number): number[] {
  const rough = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= rough)!;
  const ticks: number[] = [];
  for (let tick = 0; tick < max + step / 2; tick += step) ticks.push(tick);
  return ticks;
}

/**
 * A line chart as a standalone SVG: x on a log scale (sizes grow by ten), y linear from
 * zero, so a flat line reads as "cost does not grow". Hand-written: a few dozen elements
 * need no charting library.
 */
export function renderLineChart(chart: LineChart): string {
  const all = chart.lines.flatMap((line) => line.points);
  const xs = all.map((point) => point.x);
  const [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  const yTicks = linearTicks(Math.max(...all.map((point) => point.y), chart.guide?.y ?? 0) || 1);
  const yMax = yTicks.at(-1)!;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const logSpan = Math.log10(xMax) - Math.log10(xMin) || 1;
  const xAt = (x: number) => MARGIN.left + ((Math.log10(x) - Math.log10(xMin)) / logSpan) * plotWidth;
  const yAt = (y: number) => MARGIN.top + plotHeight - (y / yMax) * plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(chart.title)}</text>`,
  ];
  for (const tick of yTicks) {
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${yAt(tick)}" y2="${yAt(tick)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${yAt(tick) + 4}" text-anchor="end">${tickText(tick)}</text>`);
  }
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) {
    parts.push(`<line x1="${xAt(x)}" x2="${xAt(x)}" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}" stroke="#f0f0f0"/>`);
    parts.push(`<text x="${xAt(x)}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle">${compact(x)}</text>`);
  }
  parts.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#888"/>`);
  parts.push(`<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 14}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`);
  parts.push(
    `<text transform="translate(18 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`,
  );
  if (chart.guide) {
    const y = yAt(chart.guide.y);
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y}" y2="${y}" stroke="#999" stroke-dasharray="6 4"/>`);
    parts.push(
      `<text x="${MARGIN.left + plotWidth - 4}" y="${y - 5}" text-anchor="end" fill="#666">${escapeXml(chart.guide.label)}</text>`,
    );
  }
  chart.lines.forEach((line, index) => {
    const colour = COLOURS[index % COLOURS.length]!;
    const points = line.points.map((point) => `${xAt(point.x).toFixed(1)},${yAt(point.y).toFixed(1)}`);
    parts.push(`<polyline points="${points.join(' ')}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    for (const point of line.points)
      parts.push(`<circle cx="${xAt(point.x).toFixed(1)}" cy="${yAt(point.y).toFixed(1)}" r="3.5" fill="${colour}"/>`);
    const legendY = MARGIN.top + 10 + index * 20;
    parts.push(
      `<line x1="${WIDTH - MARGIN.right + 14}" x2="${WIDTH - MARGIN.right + 34}" y1="${legendY}" y2="${legendY}" stroke="${colour}" stroke-width="2"/>`,
    );
    parts.push(`<text x="${WIDTH - MARGIN.right + 40}" y="${legendY + 4}">${escapeXml(line.name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
