export type DayPart = 'morning' | 'afternoon' | 'evening';

/** The part of the day for the greeting, in the user's local time: morning before 12:00, afternoon before 18:00. */
export function dayPart(date: Date): DayPart {
  const hour = date.getHours();
  if (hour < 12) return 'morning';
  if (hour < 18) return 'afternoon';
  return 'evening';
}
