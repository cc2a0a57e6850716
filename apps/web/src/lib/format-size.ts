import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import i18n from './i18n';

const UNITS = ['bytes', 'kb', 'mb', 'gb', 'tb'] as const;

/**
 * A size in the reader's language: the same unit and rounding as formatBytes of
 * @cloudvault/contract/format (base 1024, at most two decimals, zero for anything that is
 * not a size), with the number written the language's way ('1,5 KB' in German) and the
 * unit from the sizeUnits keys ('1,5 Ko' in French). English matches formatBytes exactly.
 */
export function formatSize(bytes: number | string | null | undefined, language: string): string {
  const value = typeof bytes === 'string' ? Number(bytes) : bytes;
  const valid = value !== null && value !== undefined && Number.isFinite(value) && value > 0;
  const exponent = valid ? Math.min(Math.floor(Math.log(value) / Math.log(1024)), UNITS.length - 1) : 0;
  const rounded = valid ? Number((value / 1024 ** exponent).toFixed(2)) : 0;
  // No grouping: formatBytes writes '1023 Bytes', never '1,023 Bytes'.
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2, useGrouping: false }).format(rounded);
  const unit = UNITS[exponent] ?? 'bytes';
  return `${number} ${i18n.t(`sizeUnits.${unit}`, { lng: language })}`;
}

/** formatSize in the interface's current language. */
export function useFormatSize(): (bytes: number | string | null | undefined) => string {
  const { i18n: instance } = useTranslation();
  const language = instance.language;
  return useCallback((bytes) => formatSize(bytes, language), [language]);
}
