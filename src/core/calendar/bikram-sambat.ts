// Bikram Sambat, Nepal's calendar (docs/reference/dates.md, "The table of months"): loaded only
// when a run asks for it (--calendar bs, SVC_CALENDAR, the profile's `calendar`, or --fy), through
// calendar.ts. The build makes it a file of its own (dist/bs-calendar.cjs), so that no other run
// reads the table.
//
// BS has no formula: the length of each month is set by the almanac (Nepal Panchang Nirnayak
// Samiti) year by year. The table below holds the months of 2000 to 2083 BS (1943-04-14 to
// 2027-04-13 AD), copied from the npm package nepali-date-converter 3.4.0 (its dateConfigMap,
// https://github.com/subeshb1/Nepali-Date, MIT License, Copyright (c) 2020 Subesh Bhandari). A
// second package made apart from it, bikram-sambat 1.8.1 (github.com/medic/bikram-sambat, its own
// encoding of the months), agrees with it on every month of those years; from 2084 BS on the two
// (and the other published tables) disagree (2084's Jestha has 31 days in one, 32 in the other), so
// svc takes no date past 2083 BS. test/unit/bikram-sambat.test.ts checks every month start of the
// covered years against bikram-sambat; to cover another year, add its row here once two independent
// tables agree on it, and that test will check it.
//
// Pure: dates are texts YYYY-MM-DD; days are counted with Date.UTC, never in a local zone.

/** The first and last year of the table. */
export const FIRST_YEAR = 2000;
export const LAST_YEAR = 2083;

/**
 * The days of each month of each year from FIRST_YEAR, Baisakh to Chaitra, two digits a month
 * (29 to 32): `303231…` is Baisakh 30, Jestha 32, Asar 31, …
 */
const MONTH_LENGTHS: readonly string[] = [
  '303231323130303029302931',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '303231323130303029302931',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '313131323131293030292931',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '313131323131293030293030',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '313131323131293030293030',
  '313132313131302930293030',
  '313231323130302930293030',
  '313231323130303029302931',
  '313131323131302930293030',
  '313132313131302930293030',
  '313231323130303029293030',
  '313231323130303029302931',
  '313131323131302930293030',
  '313132313131302930293030',
  '313231323130303029293031',
  '303231323130303029302931',
  '313132313131302930293030',
  '313132313230302930293030',
  '313231323130303029293031',
  '303231323130303029302931',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '303231323131293030292931',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '313131323131293030293030',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '313131323131293030293030',
  '313132313131302930293030',
  '313231323130302930293030',
  '313231323130303029293031',
  '313131323131302930293030',
  '313132313131302930293030',
  '313231323130303029293030',
  '313231323130303029302931',
  '313131323131302930293030',
  '313132313131302930293030',
  '313231323130303029293030',
  '313231323130303029302931',
  '313132313131302930293030',
  '313132313230302930293030',
  '313231323130303029293031',
  '303231323130303029302931',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '303231323131293029302931',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '313131323131293030292931',
  '313132313131302930293030',
  '313132323130302930293030',
  '313231323130303029293031',
  '313131323131293030293030',
  '313132313131302930293030',
  '313231323130302930293030',
  '313231323130303029293031',
  '313131323131302930293030',
  '313132313131302930293030',
  '313231323130303029293030',
  '313231323130303029302931',
  '313131323131302930293030',
  '313132313131302930293030',
  '313231323130303029293030',
  '313231323130303029302931',
  '313132313131302930293030',
  '313132313131302930293030',
];

/** The month names, as the almanac's English transliteration writes them. */
export const MONTH_NAMES = [
  'Baisakh',
  'Jestha',
  'Asar',
  'Shrawan',
  'Bhadra',
  'Asoj',
  'Kartik',
  'Mangsir',
  'Poush',
  'Magh',
  'Falgun',
  'Chaitra',
] as const;

const MS_A_DAY = 86_400_000;
/** 2000-01-01 BS is 1943-04-14 AD: its day number since 1970-01-01. */
const EPOCH_DAY = Date.UTC(1943, 3, 14) / MS_A_DAY;

/**
 * The day number (since EPOCH_DAY) of the first day of each year of the table, and of the day after
 * the last.
 */
const YEAR_STARTS: readonly number[] = (() => {
  const starts = [0];
  for (const row of MONTH_LENGTHS) {
    let days = 0;
    for (let month = 0; month < 12; month++) days += Number(row.slice(2 * month, 2 * month + 2));
    starts.push(starts.at(-1)! + days);
  }
  return starts;
})();

/** The days of a month of the table (month 1 to 12); undefined for a year it does not hold. */
export function daysInMonth(year: number, month: number): number | undefined {
  const row = MONTH_LENGTHS[year - FIRST_YEAR];
  if (row === undefined || !Number.isInteger(year) || month < 1 || month > 12) return undefined;
  return Number(row.slice(2 * (month - 1), 2 * month));
}

const two = (n: number) => String(n).padStart(2, '0');

function adText(dayNumber: number): string {
  const date = new Date((EPOCH_DAY + dayNumber) * MS_A_DAY);
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
}

/**
 * The AD date (YYYY-MM-DD) of a BS date; undefined for a day the table does not hold (check it with
 * daysInMonth first).
 */
export function bsToAd(year: number, month: number, day: number): string | undefined {
  const days = daysInMonth(year, month);
  if (days === undefined || day < 1 || day > days) return undefined;
  let dayNumber = YEAR_STARTS[year - FIRST_YEAR]!;
  for (let m = 1; m < month; m++) dayNumber += daysInMonth(year, m)!;
  return adText(dayNumber + day - 1);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The BS date (YYYY-MM-DD) of an AD date written YYYY-MM-DD; undefined for no real AD date, or one
 * outside the table.
 */
export function adToBs(text: string): string | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  // 2026-02-30 rolls over to March: no date.
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day)
    return undefined;
  let dayNumber = Math.round(utc.getTime() / MS_A_DAY) - EPOCH_DAY;
  if (dayNumber < 0 || dayNumber >= YEAR_STARTS.at(-1)!) return undefined;
  // The year: the last whose start is not after the day (84 years: a walk is enough).
  let index = 0;
  while (YEAR_STARTS[index + 1]! <= dayNumber) index++;
  dayNumber -= YEAR_STARTS[index]!;
  const bsYear = FIRST_YEAR + index;
  let bsMonth = 1;
  for (
    let days = daysInMonth(bsYear, bsMonth)!;
    dayNumber >= days;
    days = daysInMonth(bsYear, bsMonth)!
  ) {
    dayNumber -= days;
    bsMonth++;
  }
  return `${bsYear}-${two(bsMonth)}-${two(dayNumber + 1)}`;
}

/** The days the table holds, in both calendars. */
export const RANGE = {
  bs: { first: `${FIRST_YEAR}-01-01`, last: `${LAST_YEAR}-12-${two(daysInMonth(LAST_YEAR, 12)!)}` },
  ad: { first: adText(0), last: adText(YEAR_STARTS.at(-1)! - 1) },
} as const;

/** `2000-01-01 to 2083-12-30 BS (1943-04-14 to 2027-04-13 AD)`: what a refusal names. */
export const RANGE_TEXT = `${RANGE.bs.first} to ${RANGE.bs.last} BS (${RANGE.ad.first} to ${RANGE.ad.last} AD)`;
