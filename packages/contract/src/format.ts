const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;
/** The units as the interface's other languages write them; any other language writes English's. */
const UNITS_BY_LANGUAGE: Record<string, readonly string[]> = {
  es: ['bytes', 'KB', 'MB', 'GB', 'TB'],
  fr: ['octets', 'Ko', 'Mo', 'Go', 'To'],
  zh: ['字节', 'KB', 'MB', 'GB', 'TB'],
};

/** Base 1024, at most two decimals; zero for anything that is not a size. */
function scaled(bytes: number | string | null | undefined): { value: number; exponent: number } {
  const size = typeof bytes === 'string' ? Number(bytes) : bytes;
  if (size === null || size === undefined || !Number.isFinite(size) || size <= 0) return { value: 0, exponent: 0 };
  const exponent = Math.min(Math.floor(Math.log(size) / Math.log(1024)), UNITS.length - 1);
  return { value: Number((size / 1024 ** exponent).toFixed(2)), exponent };
}

/**
 * Sizes as the API and the UI show them: base 1024, at most two decimals with trailing
 * zeros dropped, '0 Bytes' for zero and for anything that is not a size.
 */
export function formatBytes(bytes: number | string | null | undefined): string {
  const { value, exponent } = scaled(bytes);
  return `${value} ${UNITS[exponent]}`;
}

/**
 * formatBytes in a reader's language: the same unit and rounding, with the number written
 * the language's way ('1,5 KB' in German) and the unit too ('1,5 Ko' in French). English
 * is formatBytes exactly.
 */
export function formatBytesIn(bytes: number | string | null | undefined, language: string): string {
  // English writes numbers as JavaScript does: no Intl.NumberFormat, whose first use in a
  // page costs a phone tens of milliseconds (loading the locale's data).
  if (language === 'en') return formatBytes(bytes);
  const { value, exponent } = scaled(bytes);
  return `${numberFormat(language).format(value)} ${(UNITS_BY_LANGUAGE[language] ?? UNITS)[exponent]}`;
}

/** One formatter per language: making an Intl.NumberFormat costs far more than using one (a tile each). */
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(language: string): Intl.NumberFormat {
  let format = numberFormats.get(language);
  if (!format) {
    // No grouping: formatBytes writes '1023 Bytes', never '1,023 Bytes'.
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 2, useGrouping: false });
    numberFormats.set(language, format);
  }
  return format;
}
