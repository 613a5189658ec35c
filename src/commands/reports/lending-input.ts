// Local checks of the lending verbs' input (`reports transactions`, `reports underwrite`): the
// range of dates, filters and loan numbers. Pure: each failure is a usage error (exit 2) naming the
// flag, raised before any request. A date itself is checked in ../args.ts (as enrich's are), the
// data commands' months (YYYY-MM) in ../data/input.ts; the enum flags, --limit and --tenor-months
// by their declaration (integerOption), and the loan's decimals by the rules below, which index.ts
// declares them with (decimalOption).
import type { BsCalendar } from '../../core/calendar/calendar.js';
import { UsageError } from '../../core/errors.js';
import type { DecimalRule } from '../../core/program/typed-options.js';
import { checkDate } from '../args.js';

/** The transaction categories the service documents. */
export const TRANSACTION_CATEGORIES = [
  'salary',
  'loan_repayment',
  'utility',
  'wallet',
  'merchant_payment',
  'refund',
  'remittance',
  'cash_withdrawal',
  'transfer',
  'investment',
  'interest',
  'tax',
  'fee',
  'other',
] as const;

export const DIRECTIONS = ['credit', 'debit'] as const;

export type TransactionCategory = (typeof TRANSACTION_CATEGORIES)[number];
export type Direction = (typeof DIRECTIONS)[number];

/**
 * `--since` and `--until` (calendar dates, args.ts; with the BS calendar, BS dates, sent as their
 * AD dates), both inclusive: since must not come after until.
 */
export function checkDateRange(
  since: string | undefined,
  until: string | undefined,
  calendar?: BsCalendar,
): { since?: string; until?: string } {
  const read = (value: string | undefined, flag: string) =>
    calendar && value !== undefined ? calendar.flagDate(value, flag) : checkDate(value, flag);
  const start = read(since, '--since');
  const end = read(until, '--until');
  // YYYY-MM-DD texts sort as the dates do.
  if (start !== undefined && end !== undefined && start > end) {
    throw new UsageError(
      `--since ${since} comes after --until ${until}: the range would hold no day`,
    );
  }
  return { since: start, until: end };
}

/**
 * How the date flags are read: `calendar` when dates are BS (docs/reference/dates.md); `fiscal`,
 * the BS table, when --fy is given.
 */
export interface DateReading {
  calendar?: BsCalendar;
  fiscal?: BsCalendar;
}

/** `--fy` or `--since`/`--until`, never both: the range of dates, in AD, as sent. */
export function dateRange(
  options: { since?: string; until?: string; fy?: string },
  reading: DateReading,
): { since?: string; until?: string } {
  if (options.fy === undefined)
    return checkDateRange(options.since, options.until, reading.calendar);
  if (options.since !== undefined || options.until !== undefined) {
    throw new UsageError(
      `--fy sets both ends of the range; it cannot be given with ${options.since !== undefined ? '--since' : '--until'}`,
    );
  }
  if (!reading.fiscal) throw new Error('--fy needs the Bikram Sambat table');
  return reading.fiscal.fiscalYear(options.fy);
}

/**
 * `--merchant-category`: free text, but one word (dining, groceries), with no control character.
 */
export function checkMerchantCategory(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === '' || /[\s\p{Cc}]/u.test(value)) {
    throw new UsageError(
      `--merchant-category takes one word, such as dining or groceries, not ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** The query of `GET /v1/reports/{id}/transactions`, by the service's names. */
export type TransactionFilters = {
  category?: string;
  merchant_category?: string;
  direction?: string;
  since?: string;
  until?: string;
  limit?: number;
};

/**
 * The options of `reports transactions`, as commander gives them: the enum flags checked by their
 * declaration (index.ts).
 */
export interface TransactionOptions {
  category?: TransactionCategory;
  merchantCategory?: string;
  direction?: Direction;
  since?: string;
  until?: string;
  /** Nepal's fiscal year, `2081/82`: sets since and until. */
  fy?: string;
  /** Checked by its declaration (integerOption, index.ts). */
  limit?: number;
}

/**
 * Every option of `reports transactions`, checked; absent ones stay absent (left out of the query).
 */
export function transactionFilters(
  options: TransactionOptions,
  reading: DateReading = {},
): TransactionFilters {
  const range = dateRange(options, reading);
  const filters: TransactionFilters = {
    category: options.category,
    merchant_category: checkMerchantCategory(options.merchantCategory),
    direction: options.direction,
    since: range.since,
    until: range.until,
    limit: options.limit,
  };
  for (const key of Object.keys(filters) as (keyof TransactionFilters)[])
    if (filters[key] === undefined) delete filters[key];
  return filters;
}

/** `--principal`: the loan amount, a finite number above 0. */
export const PRINCIPAL: DecimalRule = {
  form: 'decimal',
  above: 0,
  takes: 'the loan amount, a number above 0 such as 500000',
  takesInBounds: 'the loan amount, a number above 0',
};

/** `--annual-rate`: the yearly interest rate in percent, from 0 to 100. */
export const ANNUAL_RATE: DecimalRule = {
  form: 'decimal',
  max: 100,
  takes: 'the yearly interest rate in percent, from 0 to 100 (e.g. 12.5)',
  takesInBounds: 'the yearly interest rate in percent, from 0 to 100',
};

/**
 * `--foir-ceiling`: the largest share of income that may go to instalments, above 0 and at most 1.
 */
export const FOIR_CEILING: DecimalRule = {
  form: 'decimal',
  above: 0,
  max: 1,
  takes: 'a fraction above 0 and at most 1 (e.g. 0.5 for 50%)',
  // A percentage written for the fraction: say which fraction it is.
  hint: (foir, value) => (foir > 1 && foir <= 100 ? ` (for ${value}% write ${foir / 100})` : ''),
};

/** `--applicant-name`: any name, but not empty and on one line. */
export function parseApplicantName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = value.trim();
  if (name === '' || /\p{Cc}/u.test(name)) {
    throw new UsageError(
      `--applicant-name takes the applicant's name on one line, e.g. "Ram Prasad Sharma", not ${JSON.stringify(value)}`,
    );
  }
  return name;
}

export interface UnderwritingRequest {
  applicant_name?: string;
  foir_ceiling?: number;
  loan: { principal: number; tenor_months: number; annual_rate_pct: number };
}

/**
 * The options of `reports underwrite`: the loan numbers checked by their declaration (index.ts: the
 * parsers above).
 */
export interface UnderwriteOptions {
  principal: number;
  tenorMonths: number;
  annualRate: number;
  applicantName?: string;
  foirCeiling?: number;
}

/** The body of `POST /v1/reports/{id}/underwriting`; absent options are left out. */
export function underwritingBody(options: UnderwriteOptions): UnderwritingRequest {
  const loan = {
    principal: options.principal,
    tenor_months: options.tenorMonths,
    annual_rate_pct: options.annualRate,
  };
  const name = parseApplicantName(options.applicantName);
  const foir = options.foirCeiling;
  return {
    ...(name !== undefined && { applicant_name: name }),
    ...(foir !== undefined && { foir_ceiling: foir }),
    loan,
  };
}
