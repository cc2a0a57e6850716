/** A day as billing pages show it ('Mar 5, 2026'). */
export function formatDay(iso: string, language: string): string {
  return new Date(iso).toLocaleDateString(language, { year: 'numeric', month: 'short', day: 'numeric' });
}
