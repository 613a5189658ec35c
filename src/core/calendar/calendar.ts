// Which calendar dates are shown and read in (docs/reference/dates.md): `ad`, as the service sends
// them, or `bs`, Bikram Sambat, Nepal's. What the table of BS months is needed for is here; the
// table itself (bikram-sambat.ts) is loaded by loadBsCalendar only, when a run asks for BS: no
// other run reads it (the build makes it dist/bs-calendar.cjs, and test/e2e/startup.test.ts checks
// that).
import { UsageError } from '../errors.js';
import type * as Table from './bikram-sambat.js';

export const CALENDARS = ['ad', 'bs'] as const;
export type CalendarName = (typeof CALENDARS)[number];

/**
 * A calendar's name as set in SVC_CALENDAR or a profile's `calendar`; undefined for any other text.
 */
export function calendarNamed(text: string): CalendarName | undefined {
  return (CALENDARS as readonly string[]).includes(text) ? (text as CalendarName) : undefined;
}

/** The table of BS months, loaded now (a file of its own in the build). */
export async function loadBsCalendar(): Promise<BsCalendar> {
  return new BsCalendar(await import('./bikram-sambat.js'));
}

/**
 * A calendar date, alone or at the start of a date-time (`2026-05-22T10:00:00Z`, `2026-05-22 15:45
 * +0545`); a month alone is none.
 */
const DATED = /^(\d{4})-(\d{2})-(\d{2})(?=$|[Tt \u00a0]\d)/;
const BS_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^\d{4}-\d{2}$/;
const FISCAL_YEAR = /^(\d{4})\/(\d{2})$/;
/** Two dates of a period as a view writes it (report-view.ts): `2025-07-16 → 2026-01-15`. */
const PERIOD = ' → ';

/** The BS calendar: AD dates of replies shown in BS, BS dates of flags sent in AD, fiscal years. */
export class BsCalendar {
  constructor(private readonly table: typeof Table) {}

  /** `2000-01-01 to 2083-12-30 BS (1943-04-14 to 2027-04-13 AD)`. */
  get range(): string {
    return this.table.RANGE_TEXT;
  }

  /**
   * A text that is a date or a date-time with its date in BS, the rest kept
   * (`2083-02-08T10:00:00Z`); `outside` for a real AD date the table does not hold; undefined for
   * any other text (a month, free text, 2026-02-30), which stays as sent.
   */
  dated(text: string): { bs: string } | 'outside' | undefined {
    const m = DATED.exec(text);
    if (!m) return undefined;
    const bs = this.table.adToBs(m[0]);
    if (bs !== undefined) return { bs: bs + text.slice(m[0].length) };
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const utc = new Date(0);
    utc.setUTCFullYear(year, month - 1, day);
    // 2026-02-30 rolls over into March: no date, shown as sent.
    return utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day ? 'outside' : undefined;
  }

  /**
   * A table cell for people in BS: a date, a date-time (its time kept) or a period of them; a date
   * outside the table stays in AD, marked so (`2027-05-01 AD`, `space` between, the glue of a
   * terminal). Undefined: the cell holds no date and stays as it is.
   */
  cell(text: string, space: string): string | undefined {
    const parts = text.split(PERIOD);
    if (parts.length > 2) return undefined;
    const shown = parts.map((part) => {
      if (parts.length === 2 && part === '?') return { text: part, date: false };
      const bs = this.dated(part);
      if (bs === undefined) return undefined;
      return { text: bs === 'outside' ? `${part}${space}AD` : bs.bs, date: true };
    });
    if (shown.some((part) => part === undefined) || !shown.some((part) => part!.date))
      return undefined;
    return shown.map((part) => part!.text).join(PERIOD);
  }

  /**
   * A date a chart shows (its as-of line, a period under its axis) in BS, marked `(BS)`; a month
   * stays in AD, the datasets being monthly by AD month, marked `AD` (as a date outside the table
   * is); any other text as it is.
   */
  chartLabel(text: string): string {
    const bs = this.dated(text);
    if (bs === undefined) return MONTH.test(text) ? `${text} AD` : text;
    return bs === 'outside' ? `${text} AD` : `${bs.bs} (BS)`;
  }

  /**
   * The `<field>_bs` of a value of -o csv or -o ndjson: its BS date (and time as sent); null
   * outside the table; undefined: no date.
   */
  field(value: unknown): string | null | undefined {
    if (typeof value !== 'string') return undefined;
    const bs = this.dated(value);
    return bs === 'outside' ? null : bs?.bs;
  }

  /**
   * The AD date of a flag's BS date (`--since 2083-02-08`): a usage error that names the flag, and
   * the month's real length.
   */
  flagDate(value: string, flag: string): string {
    const m = BS_DATE.exec(value);
    if (!m)
      throw new UsageError(
        `${flag} takes a Bikram Sambat date written YYYY-MM-DD (e.g. 2083-02-08), not "${value}"`,
        ['--calendar ad takes AD dates.'],
      );
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (month < 1 || month > 12)
      throw new UsageError(
        `${flag} ${value} is no date of the Bikram Sambat calendar: months run from 01 to 12`,
      );
    const days = this.table.daysInMonth(year, month);
    if (days === undefined)
      throw new UsageError(
        `${flag} ${value} is outside the Bikram Sambat years svc knows: ${this.range}`,
      );
    if (day < 1 || day > days) {
      throw new UsageError(
        `${flag} ${value} is no date of the Bikram Sambat calendar: ${m[1]}-${m[2]} (${this.table.MONTH_NAMES[month - 1]} ${year}) has days 01 to ${days}`,
      );
    }
    return this.table.bsToAd(year, month, day)!;
  }

  /**
   * A BS month of the table (`2081-04`): its name and the AD dates of its first and last day
   * (Shrawan 2081, 2024-07-16 to 2024-08-15); undefined for a year outside the table.
   */
  month(year: number, month: number): { name: string; first: string; last: string } | undefined {
    const days = this.table.daysInMonth(year, month);
    if (days === undefined) return undefined;
    return {
      name: `${this.table.MONTH_NAMES[month - 1]} ${year}`,
      first: this.table.bsToAd(year, month, 1)!,
      last: this.table.bsToAd(year, month, days)!,
    };
  }

  /**
   * `--fy 2081/82`: Nepal's fiscal year, 1 Shrawan 2081 to the last day of Asar 2082, in AD
   * (2024-07-16 to 2025-07-16).
   */
  fiscalYear(value: string): { since: string; until: string } {
    const m = FISCAL_YEAR.exec(value);
    if (!m)
      throw new UsageError(
        `--fy takes a Bikram Sambat fiscal year written YYYY/YY (e.g. 2081/82), not "${value}"`,
      );
    const first = Number(m[1]);
    if (Number(m[2]) !== (first + 1) % 100)
      throw new UsageError(
        `--fy ${value} is no fiscal year: its years must follow each other, as ${m[1]}/${String((first + 1) % 100).padStart(2, '0')}`,
      );
    const { FIRST_YEAR, LAST_YEAR, daysInMonth, bsToAd } = this.table;
    if (first < FIRST_YEAR || first + 1 > LAST_YEAR) {
      const last = `${LAST_YEAR - 1}/${String(LAST_YEAR % 100).padStart(2, '0')}`;
      throw new UsageError(
        `--fy ${value} is outside the Bikram Sambat years svc knows: ${this.range}, fiscal years ${FIRST_YEAR}/${String((FIRST_YEAR + 1) % 100).padStart(2, '0')} to ${last}`,
      );
    }
    // Shrawan is the 4th month, Asar the 3rd.
    return {
      since: bsToAd(first, 4, 1)!,
      until: bsToAd(first + 1, 3, daysInMonth(first + 1, 3)!)!,
    };
  }
}
