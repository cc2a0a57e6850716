import type { TFunction } from 'i18next';
import { remainingTime } from './remaining-time';

/** '12 seconds left', '3 minutes left', '1.5 hours left'; empty while unknown. */
export function remainingTimeText(t: TFunction, seconds: number | null): string {
  const remaining = remainingTime(seconds);
  if (!remaining) return '';
  return t(`uploads.remaining.${remaining.unit}`, { count: remaining.value });
}

/** '1.5 MB/s', the size written by `formatSize` (useFormatSize: the interface's language). */
export function speedText(t: TFunction, formatSize: (bytes: number) => string, bytesPerSecond: number | null): string {
  if (bytesPerSecond === null) return '';
  return t('uploads.speed', { size: formatSize(bytesPerSecond) });
}
