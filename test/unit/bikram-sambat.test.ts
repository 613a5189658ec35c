// The Bikram Sambat table (src/core/calendar/bikram-sambat.ts, copied from nepali-date-converter)
// against a second table made apart from it: bikram-sambat (medic), a devDependency. Every month
// start of every covered year, both ways, and every month's length; then round trips of every day.
import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';

import {
  adToBs,
  bsToAd,
  daysInMonth,
  FIRST_YEAR,
  LAST_YEAR,
  RANGE,
  RANGE_TEXT,
} from '../../src/core/calendar/bikram-sambat.js';
import { loadBsCalendar } from '../../src/core/calendar/calendar.js';

interface Medic {
  toGreg(year: number, month: number, day: number): { year: number; month: number; day: number };
  toBik_euro(greg: string): string;
  daysInMonth(year: number, month: number): number;
}
const medic = createRequire(import.meta.url)('bikram-sambat') as Medic;

const two = (n: number) => String(n).padStart(2, '0');
const iso = (d: { year: number; month: number; day: number }) =>
  `${d.year}-${two(d.month)}-${two(d.day)}`;

describe('the Bikram Sambat table', () => {
  it('covers 2000 to 2083 BS, 1943-04-14 to 2027-04-13 AD', () => {
    expect([FIRST_YEAR, LAST_YEAR]).toEqual([2000, 2083]);
    expect(RANGE).toEqual({
      bs: { first: '2000-01-01', last: '2083-12-30' },
      ad: { first: '1943-04-14', last: '2027-04-13' },
    });
    expect(RANGE_TEXT).toBe('2000-01-01 to 2083-12-30 BS (1943-04-14 to 2027-04-13 AD)');
  });

  it('agrees with bikram-sambat on the start and length of every month of every covered year', () => {
    let months = 0;
    for (let year = FIRST_YEAR; year <= LAST_YEAR; year++) {
      for (let month = 1; month <= 12; month++) {
        const start = iso(medic.toGreg(year, month, 1));
        const bs = `${year}-${two(month)}-01`;
        expect(bsToAd(year, month, 1), bs).toBe(start);
        expect(adToBs(start), start).toBe(bs);
        expect(medic.toBik_euro(start)).toBe(bs);
        expect(daysInMonth(year, month), bs).toBe(medic.daysInMonth(year, month));
        months++;
      }
    }
    expect(months).toBe(84 * 12);
  });

  it('gives every day of the range back as it took it', () => {
    const first = Date.UTC(1943, 3, 14);
    const last = Date.UTC(2027, 3, 13);
    for (let at = first; at <= last; at += 86_400_000) {
      const ad = new Date(at).toISOString().slice(0, 10);
      const bs = adToBs(ad)!;
      const [y, m, d] = bs.split('-').map(Number) as [number, number, number];
      expect(bsToAd(y, m, d)).toBe(ad);
    }
  });

  it('knows the dates the docs name, and nothing outside the table', () => {
    // `--fy 2081/82` is 2024-07-16 to 2025-07-16 (docs/reference/dates.md).
    expect(bsToAd(2081, 4, 1)).toBe('2024-07-16');
    expect(bsToAd(2082, 3, daysInMonth(2082, 3)!)).toBe('2025-07-16');
    expect(adToBs('1943-04-13')).toBeUndefined();
    expect(adToBs('2027-04-14')).toBeUndefined();
    expect(adToBs('2026-02-30')).toBeUndefined();
    expect(adToBs('2026-5-22')).toBeUndefined();
    expect(bsToAd(2084, 1, 1)).toBeUndefined();
    expect(bsToAd(1999, 12, 30)).toBeUndefined();
    expect(bsToAd(2081, 13, 1)).toBeUndefined();
    expect(bsToAd(2081, 1, 32)).toBeUndefined();
    expect(daysInMonth(2084, 1)).toBeUndefined();
  });
});

describe("a chart's labels with bs", () => {
  it('a date (or date-time) in BS marked (BS); a month, or a date past the table, AD marked AD; other text as it is', async () => {
    const calendar = await loadBsCalendar();
    expect(calendar.chartLabel('2026-03-31')).toBe('2082-12-17 (BS)');
    expect(calendar.chartLabel('2026-03-31T10:00:00Z')).toBe('2082-12-17T10:00:00Z (BS)');
    expect(calendar.chartLabel('2024-07')).toBe('2024-07 AD');
    expect(calendar.chartLabel('2027-05-01')).toBe('2027-05-01 AD');
    expect(calendar.chartLabel('Q3 2024')).toBe('Q3 2024');
  });
});
