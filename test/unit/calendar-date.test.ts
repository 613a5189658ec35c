// The one check of a calendar date written YYYY-MM-DD (src/commands/args.ts): `--since` and
// `--until` of `reports transactions` refuse with it, enrich's transactions are read with it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { checkDate, isCalendarDate } from '../../src/commands/args.js';
import { UsageError } from '../../src/core/errors.js';
import { valueOrUsageError } from '../support/usage-error.js';

/** The oracle: the calendar as JavaScript's Date keeps it. */
function inCalendar(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(text) &&
    !Number.isNaN(date.getTime()) &&
    date.toISOString().slice(0, 10) === text
  );
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const dateLike = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
  )
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);

describe('a calendar date', () => {
  it('is what the calendar holds, and the flag check takes exactly those', () => {
    fc.assert(
      fc.property(fc.oneof(dateLike, fc.string({ maxLength: 12 })), (text) => {
        expect(isCalendarDate(text)).toBe(inCalendar(text));
        expect(valueOrUsageError(() => checkDate(text, '--since')) instanceof UsageError).toBe(
          !inCalendar(text),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('says what is wrong: the form, the month, or the days of that month', () => {
    const message = (text: string) =>
      (valueOrUsageError(() => checkDate(text, '--until')) as UsageError).message;
    expect(message('2026-3-25')).toBe(
      '--until takes a date written YYYY-MM-DD (e.g. 2026-03-25), not "2026-3-25"',
    );
    expect(message('2026-13-01')).toBe(
      '--until 2026-13-01 is no date of the calendar: months run from 01 to 12',
    );
    expect(message('2100-02-29')).toBe(
      '--until 2100-02-29 is no date of the calendar: 2100-02 has days 01 to 28',
    );
    expect(checkDate('2000-02-29', '--until')).toBe('2000-02-29');
    expect(checkDate(undefined, '--until')).toBeUndefined();
  });
});
