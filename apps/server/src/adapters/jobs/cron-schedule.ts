/**
 * The next time a cron expression names, in UTC: all the in-process job runner needs of
 * cron. cron-parser did it before, and its date library (luxon) asks Intl for the system's
 * locale, which maps 5 MB of ICU's data into the server at start-up for nothing
 * (docs/decisions/0035-server-memory.md).
 *
 * Five fields (minute, hour, day of month, month, day of week) or six with seconds first;
 * each a comma-separated list of `*`, `n` or `a-b`, any of them with a `/step` (`a/step`
 * runs to the field's end). Day of week 0 and 7 are Sunday. As in cron, when both day
 * fields are restricted, a day matching either is due. No names, `?`, `L`, `W` or `#`.
 */

const DAY_MS = 86_400_000;
/** Far enough for any date that exists (29 February, with 2100's gap), near enough to stop. */
const SEARCH_LIMIT_MS = 9 * 366 * DAY_MS;

interface FieldRange {
  name: string;
  min: number;
  max: number;
}

const SECONDS: FieldRange = { name: 'second', min: 0, max: 59 };
const FIVE_FIELDS: FieldRange[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
];

interface CronSchedule {
  seconds: Set<number>;
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

function parseField(expression: string, text: string, range: FieldRange): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^(?:(\*)|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new Error(`cron "${expression}": the ${range.name} field "${part}" is not *, a number or a range`);
    const [, star, first, last, stepText] = match;
    const from = star ? range.min : Number(first);
    const to = star ? range.max : last !== undefined ? Number(last) : stepText !== undefined ? range.max : from;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (from < range.min || to > range.max || from > to || step < 1) {
      throw new Error(`cron "${expression}": the ${range.name} field "${part}" is outside ${range.min}-${range.max}`);
    }
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}

function parseCron(expression: string): CronSchedule {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) throw new Error(`cron "${expression}" has ${fields.length} fields, not 5 or 6`);
  const seconds = fields.length === 6 ? parseField(expression, fields.shift()!, SECONDS) : new Set([0]);
  const [minutes, hours, days, months, weekdays] = FIVE_FIELDS.map((range, index) => parseField(expression, fields[index]!, range)) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (weekdays.delete(7)) weekdays.add(0);
  return { seconds, minutes, hours, days, months, weekdays, daysRestricted: fields[2] !== '*', weekdaysRestricted: fields[4] !== '*' };
}

function isDueDay(schedule: CronSchedule, time: Date): boolean {
  const dayOfMonth = schedule.days.has(time.getUTCDate());
  const dayOfWeek = schedule.weekdays.has(time.getUTCDay());
  if (schedule.daysRestricted && schedule.weekdaysRestricted) return dayOfMonth || dayOfWeek;
  return dayOfMonth && dayOfWeek;
}

/** The first time strictly after `after` (whole seconds, UTC) that `expression` names. */
export function nextCronTime(expression: string, after: Date): Date {
  const schedule = parseCron(expression);
  const time = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
  const limit = after.getTime() + SEARCH_LIMIT_MS;
  while (time.getTime() <= limit) {
    if (!schedule.months.has(time.getUTCMonth() + 1)) {
      time.setUTCMonth(time.getUTCMonth() + 1, 1);
      time.setUTCHours(0, 0, 0, 0);
    } else if (!isDueDay(schedule, time)) {
      time.setUTCDate(time.getUTCDate() + 1);
      time.setUTCHours(0, 0, 0, 0);
    } else if (!schedule.hours.has(time.getUTCHours())) {
      time.setUTCHours(time.getUTCHours() + 1, 0, 0, 0);
    } else if (!schedule.minutes.has(time.getUTCMinutes())) {
      time.setUTCMinutes(time.getUTCMinutes() + 1, 0, 0);
    } else if (!schedule.seconds.has(time.getUTCSeconds())) {
      time.setUTCSeconds(time.getUTCSeconds() + 1, 0);
    } else {
      return time;
    }
  }
  throw new Error(`cron "${expression}" names no time in the next nine years`);
}
