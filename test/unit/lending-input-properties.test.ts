// Property-based tests of the lending verbs' input: dates and their range, the transaction filters,
// and the loan numbers of `reports underwrite`. Whatever is typed, the answer is a value or a usage
// error (exit 2), never a crash and never a wrong acceptance.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { checkDate } from '../../src/commands/args.js';
import {
  ANNUAL_RATE,
  checkDateRange,
  checkMerchantCategory,
  DIRECTIONS,
  FOIR_CEILING,
  parseApplicantName,
  PRINCIPAL,
  TRANSACTION_CATEGORIES,
  transactionFilters,
  underwritingBody,
} from '../../src/commands/reports/lending-input.js';
import { UsageError } from '../../src/core/errors.js';
import { decimalNumber, integerOption } from '../../src/core/program/typed-options.js';
import { parserOf, valueOrUsageError } from '../support/usage-error.js';

const refused = (f: () => unknown) => valueOrUsageError(f) instanceof UsageError;
/** --tenor-months as reports/index.ts declares it. */
const parseTenorMonths = parserOf(
  integerOption('--tenor-months <n>', 'the loan term in months, 1 to 600', { min: 1, max: 600 }),
);
/** --principal, --annual-rate and --foir-ceiling as reports/index.ts declares them. */
const parsePrincipal = decimalNumber('--principal', PRINCIPAL);
const parseAnnualRate = decimalNumber('--annual-rate', ANNUAL_RATE);
const parseFoirCeiling = decimalNumber('--foir-ceiling', FOIR_CEILING);

/** The oracle: the calendar as JavaScript's Date keeps it (ISO dates of years 0000 to 9999). */
function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Texts that look like dates, real or not: months 00 to 13, days 00 to 32, leap years and not. */
const dateLike = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(1900, 2000, 2024, 2025, 2100)),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
  )
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
const realDate = fc
  .date({
    min: new Date('0000-01-01T00:00:00Z'),
    max: new Date('9999-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));
const anyText = fc.oneof(
  fc.string({ maxLength: 14 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

describe('dates (--since, --until)', () => {
  it('accept exactly the real calendar dates written YYYY-MM-DD', () => {
    fc.assert(
      fc.property(fc.oneof(dateLike, realDate, anyText), (text) => {
        const result = valueOrUsageError(() => checkDate(text, '--since'));
        expect(result instanceof UsageError).toBe(!isCalendarDate(text));
        if (!(result instanceof UsageError)) expect(result).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('know the leap years and the length of each month', () => {
    for (const ok of ['2024-02-29', '2000-02-29', '2026-01-31', '2026-04-30', '2026-12-31'])
      expect(checkDate(ok, '--since')).toBe(ok);
    for (const bad of [
      '2026-02-29',
      '1900-02-29',
      '2100-02-29',
      '2026-04-31',
      '2026-00-10',
      '2026-13-01',
      '2026-01-00',
      '2026-1-5',
      '26-01-05',
      '2026-01-05T00:00',
      ' 2026-01-05',
    ]) {
      expect(refused(() => checkDate(bad, '--since'))).toBe(true);
    }
  });

  it('name the flag in the message, and leave an absent date absent', () => {
    expect(() => checkDate('2026-02-30', '--until')).toThrow(
      /^--until 2026-02-30 is no date of the calendar: 2026-02 has days 01 to 28$/,
    );
    expect(() => checkDate('yesterday', '--since')).toThrow(
      /--since takes a date written YYYY-MM-DD/,
    );
    expect(checkDate(undefined, '--since')).toBeUndefined();
  });

  it('take a range whose since is not after its until, as the calendar orders them', () => {
    fc.assert(
      fc.property(realDate, realDate, (a, b) => {
        const result = valueOrUsageError(() => checkDateRange(a, b));
        const inOrder = Date.parse(`${a}T00:00:00Z`) <= Date.parse(`${b}T00:00:00Z`);
        expect(result instanceof UsageError).toBe(!inOrder);
        if (inOrder) expect(result).toEqual({ since: a, until: b });
      }),
      { numRuns: 500 },
    );
    expect(checkDateRange('2026-03-01', '2026-03-01')).toEqual({
      since: '2026-03-01',
      until: '2026-03-01',
    });
    expect(checkDateRange('2026-03-01', undefined)).toEqual({
      since: '2026-03-01',
      until: undefined,
    });
  });
});

describe('transaction filters', () => {
  it('merchant categories: any one word without white space or control characters', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyText,
          fc.constantFrom(
            'dining',
            'groceries',
            'fuel-stations',
            'café',
            'a b',
            '\tx',
            'x\u0000',
            '',
          ),
        ),
        (text) => {
          const result = valueOrUsageError(() => checkMerchantCategory(text));
          const acceptable =
            text !== '' && !/\s/.test(text) && !/[\u0000-\u001f\u007f-\u009f]/.test(text);
          expect(result instanceof UsageError).toBe(!acceptable);
        },
      ),
      { numRuns: 500 },
    );
  });

  // --category and --direction take their values from the declaration (enumOption), which refuses
  // any other before the command runs: see test/unit/enum-option.test.ts.
  it('are checked all together and absent ones are left out of the query', () => {
    const options = fc.record(
      {
        category: fc.constantFrom(...TRANSACTION_CATEGORIES),
        merchantCategory: fc.oneof(
          fc.constantFrom('dining', 'groceries'),
          fc.string({ maxLength: 6 }),
        ),
        direction: fc.constantFrom(...DIRECTIONS),
        since: fc.oneof(realDate, fc.string({ maxLength: 10 })),
        until: fc.oneof(realDate, fc.string({ maxLength: 10 })),
        // --limit reaches the handler checked, by its declaration
        // (test/commands/number-flags.test.ts).
        limit: fc.integer({ min: 1, max: 1000 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(options, (o) => {
        const result = valueOrUsageError(() => transactionFilters(o));
        const acceptable =
          (o.merchantCategory === undefined ||
            /^[^\s\u0000-\u001f\u007f-\u009f]+$/.test(o.merchantCategory)) &&
          (o.since === undefined || isCalendarDate(o.since)) &&
          (o.until === undefined || isCalendarDate(o.until)) &&
          (o.since === undefined ||
            o.until === undefined ||
            !isCalendarDate(o.since) ||
            !isCalendarDate(o.until) ||
            o.since <= o.until);
        expect(result instanceof UsageError).toBe(!acceptable);
        if (result instanceof UsageError) return;
        const expected = {
          category: o.category,
          merchant_category: o.merchantCategory,
          direction: o.direction,
          since: o.since,
          until: o.until,
          limit: o.limit,
        };
        expect(result).toEqual(
          Object.fromEntries(Object.entries(expected).filter(([, v]) => v !== undefined)),
        );
        expect(Object.values(result)).not.toContain(undefined);
      }),
      { numRuns: 1000 },
    );
  });
});

const positiveDouble = fc.double({
  min: Number.MIN_VALUE,
  max: Number.MAX_VALUE,
  noNaN: true,
  noDefaultInfinity: true,
});
/** What people type for a number, good or bad. */
const numberLike = fc.oneof(
  anyText,
  fc.double().map(String),
  fc.integer({ min: -1000, max: 2000 }).map(String),
  fc.constantFrom(
    '5,00,000',
    '500_000',
    '0x10',
    '1e400',
    'Infinity',
    'NaN',
    '+5',
    '-0',
    '0',
    '.5',
    '5.',
    '1e3',
    ' 5',
    '5 ',
    '',
    '٥',
  ),
);

describe('loan numbers (--principal, --tenor-months, --annual-rate, --foir-ceiling)', () => {
  it('principal: every positive finite number as JavaScript writes it, and nothing but positive finite numbers', () => {
    fc.assert(
      fc.property(positiveDouble, (n) => {
        expect(parsePrincipal(String(n))).toBe(n);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(numberLike, (text) => {
        const result = valueOrUsageError(() => parsePrincipal(text));
        if (result instanceof UsageError) return;
        expect(result).toBe(Number(text));
        expect(Number.isFinite(result) && result > 0).toBe(true);
        // Plain digits, a point and an exponent: no sign, grouping, hex, spaces or words.
        expect(text).toMatch(/^[0-9.eE+-]+$/);
        expect(text).not.toMatch(/^[+-]/);
      }),
      { numRuns: 1000 },
    );
    for (const bad of ['0', '0.0', '-5', '1e400', 'Infinity', '5,00,000', '0x10', ' 5', ''])
      expect(refused(() => parsePrincipal(bad))).toBe(true);
    expect(() => parsePrincipal('5,00,000')).toThrow(/without grouping commas/);
  });

  it('tenor: whole months from 1 to 600', () => {
    fc.assert(
      fc.property(numberLike, (text) => {
        const result = valueOrUsageError(() => parseTenorMonths(text));
        const acceptable = /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 600;
        expect(result instanceof UsageError).toBe(!acceptable);
        if (acceptable) expect(result).toBe(Number(text));
      }),
      { numRuns: 1000 },
    );
    expect(parseTenorMonths('600')).toBe(600);
    expect(refused(() => parseTenorMonths('601'))).toBe(true);
    expect(refused(() => parseTenorMonths('12.0'))).toBe(true);
  });

  it('annual rate: from 0 to 100 percent, both ends included', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), (n) => {
        expect(parseAnnualRate(String(n === 0 ? 0 : n))).toBe(n === 0 ? 0 : n);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(numberLike, (text) => {
        const result = valueOrUsageError(() => parseAnnualRate(text));
        if (result instanceof UsageError) return;
        expect(result).toBe(Number(text));
        expect(result >= 0 && result <= 100).toBe(true);
        expect(text).not.toMatch(/^[+-]|\s/);
      }),
      { numRuns: 1000 },
    );
    for (const bad of ['-0.5', '100.01', '1e3', '12%', 'twelve'])
      expect(refused(() => parseAnnualRate(bad))).toBe(true);
  });

  it('FOIR ceiling: above 0 and at most 1', () => {
    fc.assert(
      fc.property(fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true }), (n) => {
        expect(parseFoirCeiling(String(n))).toBe(n);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(numberLike, (text) => {
        const result = valueOrUsageError(() => parseFoirCeiling(text));
        if (result instanceof UsageError) return;
        expect(result > 0 && result <= 1).toBe(true);
        expect(result).toBe(Number(text));
      }),
      { numRuns: 1000 },
    );
    for (const bad of ['0', '1.0001', '-0.5', '50%'])
      expect(refused(() => parseFoirCeiling(bad))).toBe(true);
    expect(() => parseFoirCeiling('50')).toThrow(/for 50% write 0\.5/);
  });

  it('applicant names: any name on one line, trimmed', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const result = valueOrUsageError(() => parseApplicantName(text));
        const acceptable = text.trim() !== '' && !/[\u0000-\u001f\u007f-\u009f]/.test(text.trim());
        expect(result instanceof UsageError).toBe(!acceptable);
        if (acceptable) expect(result).toBe(text.trim());
      }),
      { numRuns: 500 },
    );
  });

  it('make the documented body, with absent fields left out', () => {
    // The loan numbers reach it checked, by their declaration (the parsers above;
    // reports/index.ts).
    expect(underwritingBody({ principal: 500000, tenorMonths: 36, annualRate: 12.5 })).toEqual({
      loan: { principal: 500000, tenor_months: 36, annual_rate_pct: 12.5 },
    });
    expect(
      JSON.stringify(
        underwritingBody({
          principal: 1e6,
          tenorMonths: 60,
          annualRate: 0,
          applicantName: ' Ram Prasad Sharma ',
          foirCeiling: 0.4,
        }),
      ),
    ).toBe(
      '{"applicant_name":"Ram Prasad Sharma","foir_ceiling":0.4,"loan":{"principal":1000000,"tenor_months":60,"annual_rate_pct":0}}',
    );
    const fraction = fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        positiveDouble,
        fc.integer({ min: 1, max: 600 }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.option(fraction, { nil: undefined }),
        (principal, tenorMonths, annualRate, foirCeiling) => {
          const result = underwritingBody({ principal, tenorMonths, annualRate, foirCeiling });
          expect(result.loan).toEqual({
            principal,
            tenor_months: tenorMonths,
            annual_rate_pct: annualRate,
          });
          expect('foir_ceiling' in result).toBe(foirCeiling !== undefined);
        },
      ),
      { numRuns: 500 },
    );
  });
});
