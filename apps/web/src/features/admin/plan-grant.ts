/**
 * A plan granted by hand runs to the end of the day the operator picks, in UTC as the
 * server's renewal job counts days: picking 31 Dec gives all of 31 Dec.
 */
export function grantEndsAt(day: string): string {
  return `${day}T23:59:59.000Z`;
}

/** Today in UTC as a date field's value ('2026-11-24'). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The earliest end a grant may have, tomorrow in UTC: the date field's `min`. */
export function firstGrantableDay(now: Date): string {
  return utcDay(new Date(now.getTime() + 86_400_000));
}

/** Whether `day` (a date field's value) is a real day after today: a plan must end in the future. */
export function isLaterDay(day: string, today: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) return false;
  return day > today;
}

/** The default end offered: a month from today, a common goodwill period. */
export function defaultGrantDay(now: Date): string {
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + 1);
  return utcDay(end);
}

/** Whether the address typed back matches the account's (case and outer spaces do not matter, as at sign-in). */
export function confirmsEmail(typed: string, email: string): boolean {
  return typed.trim().toLowerCase() === email.toLowerCase();
}
