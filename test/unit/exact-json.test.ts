// Reading and writing replies without losing a digit (exact-number.ts, exact-json.ts,
// exact-stringify.ts): any JSON number text comes back exactly as written, a reply with no number
// JSON.parse would change is left as JSON.parse made it, and writing back is JSON.stringify's
// layout with the numbers as received.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { exactBody, mayHoldInexactNumber, readExactJson } from '../../src/core/json/exact-json.js';
import { ExactNumber, readsBackAsWritten } from '../../src/core/json/exact-number.js';
import { holdsExactNumber, stringifyExact } from '../../src/core/json/exact-stringify.js';

/** Any number as JSON writes one: sign, integer part, fraction, exponent, of any length. */
const numberText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant('0'),
      fc
        .tuple(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^\d{0,30}$/))
        .map(([d, rest]) => `${d}${rest}`),
    ),
    fc.option(fc.stringMatching(/^\d{1,25}$/), { nil: undefined }),
    fc.option(
      fc.tuple(
        fc.constantFrom('e', 'E'),
        fc.constantFrom('', '+', '-'),
        fc.stringMatching(/^\d{1,4}$/),
      ),
      { nil: undefined },
    ),
  )
  .map(
    ([negative, int, fraction, exponent]) =>
      `${negative ? '-' : ''}${int}${fraction === undefined ? '' : `.${fraction}`}${exponent ? exponent.join('') : ''}`,
  );

/** The numbers JSON.parse is known to change, and ordinary ones. */
const KNOWN = [
  '125000.50',
  '12345678901234567890',
  '1e400',
  '-1e400',
  '-0',
  '1.0',
  '1E5',
  '0.0000001',
  '1e21',
  '123456789012345.6',
  '58400',
  '-12.5',
  '0',
  '0.000001',
  '20603.19',
];
const anyNumberText = fc.oneof(numberText, fc.constantFrom(...KNOWN));

/** The text of a number read back: an ExactNumber's own, else as JSON writes the number. */
const textOf = (value: unknown) =>
  value instanceof ExactNumber ? value.text : JSON.stringify(value);

/**
 * A JSON text made of those numbers, strings, literals, lists and objects, with any white space.
 */
const space = fc.constantFrom('', ' ', '\n  ', '\t', '\r\n');
const { value: jsonText } = fc.letrec<{ value: string; list: string; object: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    anyNumberText,
    fc.string().map((s) => JSON.stringify(s)),
    fc.constantFrom('true', 'false', 'null'),
    tie('list'),
    tie('object'),
  ),
  list: fc
    .tuple(fc.array(fc.tuple(space, tie('value'), space), { maxLength: 4 }), space)
    .map(([items, s]) => `[${items.map(([a, v, b]) => a + v + b).join(',') || s}]`),
  object: fc
    .tuple(
      fc.uniqueArray(fc.tuple(fc.string(), tie('value')), {
        maxLength: 4,
        selector: ([key]) => key,
      }),
      space,
    )
    .map(
      ([members, s]) =>
        `{${members.map(([key, v]) => `${s}${JSON.stringify(key)}${s}:${s}${v}${s}`).join(',') || s}}`,
    ),
}));

/**
 * A value with each ExactNumber as `{ exact: text }`, for comparing (toEqual sees no private
 * field).
 */
function shown(value: unknown): unknown {
  if (value instanceof ExactNumber) return { exact: value.text };
  if (Array.isArray(value)) return value.map(shown);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shown(v)]));
  return value;
}

/**
 * A value read by readExactJson with its ExactNumbers made numbers: what JSON.parse makes of the
 * text.
 */
function asParsed(value: unknown): unknown {
  if (value instanceof ExactNumber) return value.valueOf();
  if (Array.isArray(value)) return value.map(asParsed);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asParsed(v)]));
  return value;
}

describe('the lossless reader', () => {
  it('gives back any JSON number text exactly as written, alone and inside a reply', () => {
    fc.assert(
      fc.property(anyNumberText, space, (text, s) => {
        expect(textOf(readExactJson(text))).toBe(text);
        const body = readExactJson(
          `{${s}"amount"${s}:${s}${text}${s},"list":[${s}${text}${s},1]}`,
        ) as { amount: unknown; list: unknown[] };
        expect(textOf(body.amount)).toBe(text);
        expect(textOf(body.list[0])).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps as text only the numbers JSON.parse would change; the others are numbers', () => {
    fc.assert(
      fc.property(anyNumberText, (text) => {
        const value = readExactJson(text);
        if (readsBackAsWritten(text)) expect(value).toBe(JSON.parse(text));
        else expect(value).toBeInstanceOf(ExactNumber);
      }),
      { numRuns: 2000 },
    );
    expect(shown(readExactJson('[125000.50, 12345678901234567890, 1e400, -0, 58400]'))).toEqual([
      { exact: '125000.50' },
      { exact: '12345678901234567890' },
      { exact: '1e400' },
      { exact: '-0' },
      58400,
    ]);
  });

  it('reads every other value as JSON.parse does: strings with escapes, a key given twice, __proto__ as a key', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(asParsed(readExactJson(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
    const body = readExactJson(
      '{"a":1,"\\u00e9\\n":"x\\"y","a":2.50,"__proto__":{"b":1}}',
    ) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['a', 'é\n', '__proto__']);
    expect(shown(body.a)).toEqual({ exact: '2.50' });
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).toEqual({ b: 1 });
  });

  it('makes a number the reply repeats once, however often it comes: a reply of 16 MiB of `1.10,` is not 3 million objects', () => {
    const list = readExactJson(
      `[${'1.10,'.repeat(1000)}{"a":1.10,"b":125000.50},125000.50,58400,58400]`,
    ) as unknown[];
    expect(new Set(list.slice(0, 1000)).size).toBe(1);
    expect(shown(list[0])).toEqual({ exact: '1.10' });
    const record = list[1000] as Record<string, unknown>;
    expect(record.a).toBe(list[0]);
    expect(list[1001]).toBe(record.b);
    expect(shown(list.slice(1001))).toEqual([{ exact: '125000.50' }, 58400, 58400]);
  });

  it('reads nesting deeper than any stack', () => {
    const depth = 100_000;
    const value = readExactJson('['.repeat(depth) + '1.50' + ']'.repeat(depth));
    let inner = value;
    for (let i = 0; i < depth; i++) inner = (inner as unknown[])[0];
    expect(shown(inner)).toEqual({ exact: '1.50' });
  });
});

describe('which replies need it', () => {
  it('finds every number JSON.parse would change, wherever it stands', () => {
    fc.assert(
      fc.property(anyNumberText, space, (text, s) => {
        if (readsBackAsWritten(text)) return;
        for (const raw of [
          text,
          `${s}${text}${s}`,
          `[${s}${text}]`,
          `[1,${s}${text}]`,
          `{"a":${s}${text}}`,
          `{"a":1,"b":${text},"c":"d"}`,
        ]) {
          expect(mayHoldInexactNumber(raw), raw).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves a reply whose numbers all read back as JSON.parse made it', () => {
    const raw =
      '{"count": 2, "data": [{"amount": 58400, "rate": 0.5, "id": "1234567890123456789"}, {"amount": -12.25}]}';
    expect(mayHoldInexactNumber(raw)).toBe(false);
    const parsed = JSON.parse(raw) as unknown;
    expect(exactBody(raw, parsed)).toBe(parsed);
  });

  it('reads a reply that holds one anew, and a bare number too', () => {
    const raw = '{"data": [{"amount": 125000.50}]}';
    expect(shown(exactBody(raw, JSON.parse(raw)))).toEqual({
      data: [{ amount: { exact: '125000.50' } }],
    });
    expect(shown(exactBody(' 1e400\n', JSON.parse('1e400')))).toEqual({ exact: '1e400' });
    expect(exactBody('12', 12)).toBe(12);
  });
});

describe('writing it back', () => {
  it('is JSON.stringify for any value that holds no number kept as text, compact and indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
        expect(stringifyExact(value, indent)).toBe(JSON.stringify(value, null, indent));
      }),
      { numRuns: 500 },
    );
  });

  it("is JSON.stringify's layout with every number as received", () => {
    fc.assert(
      fc.property(jsonText, fc.constantFrom(0, 2), (text, indent) => {
        const value = readExactJson(text);
        // Each number kept as text stands in JSON.stringify's output as a placeholder string, then
        // its text.
        const texts: string[] = [];
        const placeholders = (v: unknown): unknown => {
          if (v instanceof ExactNumber) return `\u0000${texts.push(v.text) - 1}`;
          if (Array.isArray(v)) return v.map(placeholders);
          if (v !== null && typeof v === 'object')
            return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placeholders(x)]));
          return v;
        };
        const expected = JSON.stringify(placeholders(value), null, indent).replace(
          /"\\u0000(\d+)"/g,
          (_, i: string) => texts[Number(i)]!,
        );
        expect(stringifyExact(value, indent)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('writes what it read, every digit kept', () => {
    const raw =
      '{"results":[{"input":"x","amount":12345678901234567890,"tiny":1e400,"rate":125000.50,"zero":-0}],"meta":{}}';
    expect(stringifyExact(readExactJson(raw))).toBe(raw);
    expect(holdsExactNumber(readExactJson(raw))).toBe(true);
    expect(holdsExactNumber(JSON.parse(raw))).toBe(false);
  });
});
