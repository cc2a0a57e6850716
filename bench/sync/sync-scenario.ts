import type { CloudVaultClient } from '../lib/cloudvault-api.ts';
import { median } from '../lib/stats.ts';
import type { OurServer } from '../servers/ours.ts';
import type { Device } from './cloudvault-cli.ts';
import type { Rclone } from './rclone.ts';
import type { SyncConfig } from './sync-config.ts';

/** What every sync scenario is given: a server of its own, a signed-in device, the ceilings. */
export interface SyncContext {
  config: SyncConfig;
  server: OurServer;
  /** The bench account through the API (for the ceilings and for changes made on the server). */
  client: CloudVaultClient;
  /** The same account's password, which the client signs in with (and rclone uses on WebDAV). */
  password: string;
  /** Device A, signed in before the scenarios. */
  device: Device;
  /** Null when rclone is not installed. */
  rclone: Rclone | null;
  /** A temp dir of the run, removed at the end. */
  root: string;
  log: (message: string) => void;
}

/** One side's figure: the client ('cloudvault') or a ceiling. */
export interface SyncFigure {
  who: string;
  status: 'measured' | 'not available' | 'failed';
  /** The headline: the median of the samples (files/s, MB/s, s or ms as `unit` says). */
  value?: number;
  unit: string;
  samples: number[];
  /** The client's peak RSS over its runs here, when read. */
  peakRssBytes?: number;
  note?: string;
}

export interface SyncTarget {
  description: string;
  measured: string;
  verdict: 'PASS' | 'MISS' | 'N/A';
  why?: string;
}

export interface SyncResult {
  id: string;
  title: string;
  figures: SyncFigure[];
  targets: SyncTarget[];
  notes: string[];
}

/** A figure from an interleave outcome: its samples, their median, why it is missing. */
export function figureOf(
  who: string,
  unit: string,
  outcome: { samples: number[]; status: SyncFigure['status']; note?: string } | undefined,
  peakRssBytes?: number,
): SyncFigure {
  if (!outcome) return { who, status: 'not available', unit, samples: [], note: 'not run' };
  const measured = outcome.status === 'measured' && outcome.samples.length > 0;
  return {
    who,
    status: outcome.status,
    unit,
    samples: outcome.samples,
    value: measured ? median(outcome.samples) : undefined,
    peakRssBytes,
    note: outcome.note,
  };
}

const why = (figure: SyncFigure) => `${figure.who} ${figure.status}${figure.note ? `: ${figure.note.split('\n')[0]}` : ''}`;

/** `ours ≥ minimum × ceiling` on the headline values (higher is better for both). */
export function ratioTarget(description: string, ours: SyncFigure, ceiling: SyncFigure, minimum: number): SyncTarget {
  const label = `${description}: ≥ ${minimum} × ${ceiling.who}`;
  if (ours.value === undefined) return { description: label, measured: '—', verdict: 'N/A', why: why(ours) };
  if (ceiling.value === undefined || ceiling.value === 0) return { description: label, measured: '—', verdict: 'N/A', why: why(ceiling) };
  const ratio = ours.value / ceiling.value;
  return {
    description: label,
    measured: `${ratio.toFixed(2)} × (${ours.value.toFixed(0)} vs ${ceiling.value.toFixed(0)} ${ours.unit})`,
    verdict: ratio >= minimum ? 'PASS' : 'MISS',
  };
}

/** A bound on one measured value (`value` undefined when it was not measured). */
export function boundTarget(
  description: string,
  value: number | undefined,
  limit: number,
  direction: 'at least' | 'under',
  format: (value: number) => string,
  whyMissing = 'not measured',
): SyncTarget {
  if (value === undefined || !Number.isFinite(value)) return { description, measured: '—', verdict: 'N/A', why: whyMissing };
  const met = direction === 'at least' ? value >= limit : value < limit;
  return { description, measured: format(value), verdict: met ? 'PASS' : 'MISS' };
}

/** The largest of the peaks read, or undefined when none was. */
export const highest = (peaks: (number | null)[]) => {
  const read = peaks.filter((peak): peak is number => peak !== null);
  return read.length > 0 ? Math.max(...read) : undefined;
};
