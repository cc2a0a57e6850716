/** A day as billing pages show it ('Mar 5, 2026'). */
export function formatDay(iso: string, language: string): string {
  return new Date(iso).toLocaleDateString(language, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A day and its time, as share and Trash pages show a deadline or a deletion ('Mar 5, 2026, 01:00 PM'). */
export function formatMoment(iso: string, language: string): string {
  return new Date(iso).toLocaleString(language, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
