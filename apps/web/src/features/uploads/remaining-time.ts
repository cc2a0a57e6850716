export interface RemainingTime {
  unit: 'seconds' | 'minutes' | 'hours';
  /** Whole seconds and minutes (rounded up); hours with one decimal. */
  value: number;
}

/**
 * The remaining time of an upload in the largest fitting unit: seconds under a minute,
 * minutes under an hour, otherwise hours. Null while it cannot be estimated yet.
 */
export function remainingTime(seconds: number | null | undefined): RemainingTime | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  if (seconds < 60) return { unit: 'seconds', value: Math.max(1, Math.ceil(seconds)) };
  if (seconds < 3600) return { unit: 'minutes', value: Math.ceil(seconds / 60) };
  return { unit: 'hours', value: Math.round((seconds / 3600) * 10) / 10 };
}
