// Local checks of `svc data` input: months, bounds, --param and --max-age. All refuse with a usage
// error (exit 2) that names the flag.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  checkMonth,
  checkRange,
  DEFAULT_MAX_AGE_MS,
  MAX_AGE,
  parseParams,
} from '../../src/commands/data/input.js';
import { cachePolicy } from '../../src/commands/data/options.js';
import { EXIT, UsageError } from '../../src/core/errors.js';
import { duration } from '../../src/core/program/typed-options.js';

const month = fc
  .record({ year: fc.integer({ min: 0, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
  .map(({ year, month }) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`);

function refusal(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(EXIT.usage);
    return error as UsageError;
  }
  throw new Error('expected a usage error');
}

describe('checkMonth', () => {
  it('takes every real YYYY-MM month', () => {
    fc.assert(
      fc.property(month, (m) => {
        expect(checkMonth(m, '--from')).toBe(m);
      }),
    );
  });

  it.each([
    '2024-13',
    '2024-1',
    '2024-00',
    '24-01',
    '2024-01-01',
    '2024/01',
    ' 2024-01',
    '2024-01 ',
    '',
    'latest',
    '２０２４-01',
  ])('refuses %j and names the flag', (value) => {
    expect(refusal(() => checkMonth(value, '--to')).message).toMatch(
      /^--to takes a month written YYYY-MM/,
    );
  });

  it('refuses anything that is not four digits, a dash and a month from 01 to 12', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), (text) => {
        fc.pre(!/^\d{4}-(0[1-9]|1[0-2])$/.test(text));
        refusal(() => checkMonth(text, '--month'));
      }),
    );
  });

  it('leaves an absent month absent', () => {
    expect(checkMonth(undefined, '--month')).toBeUndefined();
  });
});

describe('checkRange', () => {
  it('takes from < to, and either bound alone', () => {
    expect(checkRange('2024-01', '2024-02')).toEqual({ from: '2024-01', to: '2024-02' });
    expect(checkRange('2024-01', undefined)).toEqual({ from: '2024-01', to: undefined });
    expect(checkRange(undefined, '2024-01')).toEqual({ from: undefined, to: '2024-01' });
  });

  it('refuses from >= to, since to is exclusive', () => {
    fc.assert(
      fc.property(month, month, (a, b) => {
        const [from, to] = a >= b ? [a, b] : [b, a];
        expect(refusal(() => checkRange(from, to)).message).toContain('--from');
      }),
    );
  });
});

describe('parseParams', () => {
  it('reads name=value pairs; a later one overrides; values may hold = or be empty', () => {
    expect(parseParams(['a=1', 'b=x=y', 'a=2', 'c='])).toEqual({ a: '2', b: 'x=y', c: '' });
    expect(parseParams(undefined)).toEqual({});
  });

  it.each(['novalue', '=1', ''])('refuses %j', (value) => {
    expect(refusal(() => parseParams([value])).message).toContain('--param');
  });
});

/** --max-age as the data verbs declare it (MAX_AGE), and the cache policy without it. */
const parseMaxAge = (value: string | undefined) =>
  cachePolicy({ maxAge: value === undefined ? undefined : duration('--max-age', MAX_AGE)(value) })
    .maxAgeMs;

describe('parseMaxAge', () => {
  it.each([
    [undefined, DEFAULT_MAX_AGE_MS],
    ['90', 90_000],
    ['0', 0],
    ['30s', 30_000],
    ['30m', 1_800_000],
    ['12h', 43_200_000],
    ['1.5h', 5_400_000],
    ['7d', 604_800_000],
  ])('%s is %d ms', (value, ms) => {
    expect(parseMaxAge(value)).toBe(ms);
  });

  it.each(['-1', '5y', 'h', '12 hours', '400d', ''])('refuses %j', (value) => {
    expect(refusal(() => parseMaxAge(value)).message).toContain('--max-age');
  });
});
