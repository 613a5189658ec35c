// Numbers in Nepal's grouping (src/core/output/decimal.ts): digit for digit what
// Intl.NumberFormat('en-IN') writes, for every form a reply or a number may take, without loading
// Intl's locale data for the common ones.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

import { type DecimalStyle, formatDecimal } from '../../src/core/output/decimal.js';

const STYLES: [string, DecimalStyle][] = [
  ['an amount', { minimum: 2, maximum: 2 }],
  ['a count', { minimum: 0, maximum: 0 }],
  ['a plain number', { minimum: 0, maximum: 2 }],
  ['a signed number', { minimum: 0, maximum: 2, sign: 'exceptZero' }],
];

const intl = (value: number | string, style: DecimalStyle) =>
  new Intl.NumberFormat('en-IN', {
    minimumFractionDigits: style.minimum,
    maximumFractionDigits: style.maximum,
    signDisplay: style.sign ?? 'auto',
  }).format(value as number | Intl.StringNumericLiteral);

const digitText = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

/** Decimal texts of every shape: signs, leading zeros, halves, exponents, spaces. */
const decimalText = fc
  .tuple(
    fc.constantFrom('', '-', '+'),
    digitText(0, 25),
    fc.option(
      fc.oneof(
        digitText(0, 6),
        digitText(0, 3).map((d) => `${d}5`),
        digitText(10, 30),
      ),
    ),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.nat(330))),
    fc.constantFrom('', ' ', '\t'),
  )
  .filter(([, whole, fraction]) => (whole + (fraction ?? '')).length > 0)
  .map(
    ([sign, whole, fraction, exponent, space]) =>
      `${space}${sign}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : exponent.join('')}${space}`,
  );

describe.each(STYLES)('%s: as Intl writes it', (_, style) => {
  it.each([
    0,
    -0,
    1,
    -1,
    0.5,
    1.5,
    2.5,
    -2.5,
    1.005,
    0.005,
    0.004,
    9.995,
    99.5,
    999.995,
    1000,
    12345.678,
    125000.5,
    1234567.891,
    123456789.125,
    1e21,
    1.5e-7,
    -1e-7,
    2 ** 53,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    NaN,
    Infinity,
    -Infinity,
  ])('the number %d', (n) => {
    expect(formatDecimal(n, style)).toBe(intl(n, style));
  });

  it.each([
    '0',
    '-0',
    '125000.50',
    '12450.30',
    '99999999999999999999.995',
    '-0.001',
    '0.005',
    '.5',
    '5.',
    '00012.50',
    '1E+3',
    '-1e-400',
    '1e-400',
    '1e400',
    '1e999999999',
    '0x10',
    'Infinity',
    '',
    ' 12 ',
    'abc',
    '1_000',
    '١٢٣',
  ])('the text %j', (text) => {
    expect(formatDecimal(text, style)).toBe(intl(text, style));
  });

  it('any double', () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        expect(formatDecimal(n, style)).toBe(intl(n, style));
      }),
      { numRuns: 2000 },
    );
  });

  it('any decimal text', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(formatDecimal(text, style)).toBe(intl(text, style));
      }),
      { numRuns: 2000 },
    );
  });
});

it('makes no Intl formatter for a number or a decimal text', () => {
  const made = vi.spyOn(Intl, 'NumberFormat');
  try {
    expect(formatDecimal(125000.5, { minimum: 2, maximum: 2 })).toBe('1,25,000.50');
    expect(formatDecimal('-1234567.891', { minimum: 0, maximum: 2, sign: 'exceptZero' })).toBe(
      '-12,34,567.89',
    );
    expect(made).not.toHaveBeenCalled();
  } finally {
    made.mockRestore();
  }
});
