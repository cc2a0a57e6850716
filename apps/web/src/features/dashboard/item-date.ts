/** One formatter per language: making one costs far more than using it, and every tile shows a date. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** An item's date as a tile or row shows it ("Mar 4, 2026" in English); empty for a date that does not parse. */
export function formatItemDate(value: string, locale: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}
