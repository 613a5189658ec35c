// Local checks of the data commands' input. Each failure is a usage error (exit 2) that names the
// flag, raised before any request.
import { DATA_BANK_CODES, readBankCode } from '../../api/banks.js';
import type { BsCalendar } from '../../core/calendar/calendar.js';
import { UsageError } from '../../core/errors.js';
import { oneLine } from '../../core/output/format.js';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A real calendar month written YYYY-MM (2024-01, not 2024-1 or 2024-13). */
export function checkMonth(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!MONTH.test(value)) {
    throw new UsageError(
      `${flag} takes a month written YYYY-MM with a month from 01 to 12 (e.g. 2024-07), not "${value}"`,
    );
  }
  return value;
}

/** `from` is inclusive and `to` exclusive, so a range needs from < to. */
export function checkRange(
  from: string | undefined,
  to: string | undefined,
): { from?: string; to?: string } {
  const start = checkMonth(from, '--from');
  const end = checkMonth(to, '--to');
  if (start !== undefined && end !== undefined && start >= end) {
    throw new UsageError(
      `--from ${start} must come before --to ${end} (--from is inclusive, --to exclusive)`,
    );
  }
  return { from: start, to: end };
}

/**
 * With --calendar bs (`calendar`), a month flag of svc data is still an AD month: the datasets are
 * monthly by AD month (docs/reference/dates.md, "Months of svc data"). One whose year is past those
 * the datasets can hold (this year's by the clock, and the next: a --to of next January ends this
 * year) can only be a Bikram Sambat month, and is refused when the BS table holds it, naming the AD
 * months it spans and the AD month to give instead, as --fy reads a BS range: from the month
 * holding its first day, to the month holding the day before it.
 */
export function refuseBsMonth(
  value: string | undefined,
  flag: '--from' | '--to' | '--month',
  calendar: BsCalendar | undefined,
  now: number,
): void {
  if (value === undefined || calendar === undefined) return;
  const year = Number(value.slice(0, 4));
  if (year <= new Date(now).getUTCFullYear() + 1) return;
  const bs = calendar.month(year, Number(value.slice(5, 7)));
  if (!bs) return;
  const months = monthsFrom(bs.first.slice(0, 7), bs.last.slice(0, 7));
  const spans = months.length === 2 ? months.join(' and ') : `${months[0]} to ${months.at(-1)}`;
  const instead = {
    '--from': `--from ${months[0]}`,
    '--to': `--to ${nextMonth(dayBefore(bs.first).slice(0, 7))}`,
    '--month': months.map((month) => `--month ${month}`).join(' or '),
  }[flag];
  const month = Number(value.slice(5, 7));
  // Shrawan (4) opens a fiscal year.
  const fy = month >= 4 ? year : year - 1;
  throw new UsageError(
    `${flag} ${value} is a Bikram Sambat month (${bs.name} is ${bs.first} to ${bs.last}, in the AD months ${spans}); svc data months are AD: use ${instead}`,
    [
      flag === '--month'
        ? 'The datasets are monthly by AD month, whatever --calendar says.'
        : `For a Nepali fiscal year, give --fy ${fy}/${String((fy + 1) % 100).padStart(2, '0')}.`,
    ],
  );
}

/**
 * `--fy` of svc data series: the AD months from the one holding 1 Shrawan to the one holding the
 * last day of Asar (docs/reference/dates.md, "The fiscal year: --fy"), as the bounds sent (`to` is
 * exclusive) and the last month.
 */
export function fiscalMonths(year: { since: string; until: string }): {
  from: string;
  to: string;
  last: string;
} {
  const last = year.until.slice(0, 7);
  return { from: year.since.slice(0, 7), to: nextMonth(last), last };
}

/** The months from `first` to `last`, both included, YYYY-MM. */
function monthsFrom(first: string, last: string): string[] {
  const months = [first];
  while (months.at(-1)! < last) months.push(nextMonth(months.at(-1)!));
  return months;
}

/** The month after a month YYYY-MM. */
function nextMonth(month: string): string {
  const [year, m] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
  return m === 12
    ? `${String(year + 1).padStart(4, '0')}-01`
    : `${month.slice(0, 4)}-${String(m + 1).padStart(2, '0')}`;
}

/** The day before a date YYYY-MM-DD, counted in UTC. */
function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/**
 * `--bank B` of a per-bank family, as its query parameter; refused for the other families. A
 * documented code is sent in its documented form (`nabil` as NABIL). The per-bank data covers 50+
 * institutions that no document lists, so another code is sent as given: `warn` hears the nearest
 * documented codes, when some are near.
 */
export function bankQuery(
  family: { name: string; perBank?: boolean },
  bank: string | undefined,
  warn: (message: string) => void = () => {},
): Record<string, string> {
  if (bank === undefined) return {};
  if (!family.perBank)
    throw new UsageError(`--bank goes with per-bank families (bank-pnl), not ${family.name}`);
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(bank))
    throw new UsageError(`--bank takes a bank code such as NABIL, not "${oneLine(bank)}"`);
  const read = readBankCode(bank, DATA_BANK_CODES, false);
  if ('code' in read) return { bank: read.code };
  if (read.near.length > 0) {
    warn(
      `--bank ${bank} is not a bank code svc knows: did you mean ${read.near.join(' or ')}? It is sent as given (the per-bank data covers more banks than svc lists).`,
    );
  }
  return { bank };
}

/** `--param name=value`, repeatable; a later one overrides an earlier one of the same name. */
export function parseParams(values: readonly string[] | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    if (at <= 0) throw new UsageError(`--param takes name=value, not "${value}"`);
    params[value.slice(0, at)] = value.slice(at + 1);
  }
  return params;
}

const DAY_MS = 86_400_000;
export const DEFAULT_MAX_AGE_MS = DAY_MS / 2;

/** `--max-age`: seconds, or a number with s, m, h or d (90, 30m, 12h, 7d), at most 366 days. */
export const MAX_AGE = {
  maxMs: 366 * DAY_MS,
  takes: 'a duration such as 90, 30m, 12h or 7d (at most 366d)',
};
