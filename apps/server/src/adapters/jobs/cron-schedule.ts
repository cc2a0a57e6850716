import { Cron } from 'croner';

/**
 * The next time a cron expression names, in UTC: all the in-process job runner needs of
 * cron. croner computes it; `utcOffset: 0` keeps it on the Date's UTC fields, where a
 * `timezone` (or cron-parser's luxon) asks Intl and maps 5 MB of ICU's locale data into the
 * server at start-up (docs/decisions/0035-server-memory.md).
 *
 * Five fields, or six with seconds first; when both day fields are restricted, a day
 * matching either is due, as in cron.
 */
export function nextCronTime(expression: string, after: Date): Date {
  const due = new Cron(expression, { utcOffset: 0, paused: true, mode: '5-or-6-parts' }).nextRun(after);
  if (!due) throw new Error(`cron "${expression}" names no time to come`);
  return due;
}
