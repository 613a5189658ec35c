// Dates as the mock writes them (date-times to the second in UTC, calendar dates, months), and the
// clock every reply reads: injectable, so a test can run the mock "in May 2026".

/** What the mock asks for the current time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export const DAY_MS = 86_400_000;

export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** YYYY-MM of a date or date-time. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/**
 * The date `months` calendar months away, the day kept where the month has it (31 Jan − 1 = 31 Dec,
 * 31 Mar − 1 = 28 Feb).
 */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(
    Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0),
  ).getUTCDate();
  return isoDate(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(day, lastDay)));
}

export function addDays(date: string, days: number): string {
  return isoDate(Date.parse(date) + days * DAY_MS);
}

/** Every month from `from` to `to` (YYYY-MM, both included), oldest first. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = from; month <= to; month = monthOf(addMonths(`${month}-01`, 1)))
    months.push(month);
  return months;
}

/** A real calendar date written YYYY-MM-DD (not 2025-02-30, which Date.parse would roll over). */
export function isCalendarDate(text: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(text) &&
    !Number.isNaN(Date.parse(text)) &&
    isoDate(Date.parse(text)) === text
  );
}

/** Whole days from `from` to `to` (YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
}
