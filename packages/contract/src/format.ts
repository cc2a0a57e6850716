const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * Sizes as the API and the UI show them: base 1024, at most two decimals with trailing
 * zeros dropped, '0 Bytes' for zero and for anything that is not a size.
 */
export function formatBytes(bytes: number | string | null | undefined): string {
  const value = typeof bytes === 'string' ? Number(bytes) : bytes;
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(value) / Math.log(1024)), UNITS.length - 1);
  const scaled = value / 1024 ** exponent;
  return `${Number(scaled.toFixed(2))} ${UNITS[exponent]}`;
}
