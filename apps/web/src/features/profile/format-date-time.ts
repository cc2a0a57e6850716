/** A moment as the Profile page shows it, in the interface language ('Mar 5, 2026, 2:07 PM'). */
export function formatDateTime(iso: string, language: string): string {
  return new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}
