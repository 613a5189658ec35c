import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvLine } from '../../src/core/output/csv.js';
import { formatAmount, oneLine, printable, terminalJson } from '../../src/core/output/format.js';
import { formatTimestamp } from '../../src/core/output/time.js';
import { prettyJson, reindentJson } from '../../src/core/output/json.js';
import { colorEnabled } from '../../src/core/io.js';

describe('reindentJson', () => {
  it('matches JSON.stringify with two spaces for ordinary documents', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(reindentJson(text)!).toBe(JSON.stringify(JSON.parse(text), null, 2));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps numbers and strings exactly as received', () => {
    const raw = '{"amount":125000.50,"big":12345678901234567890,"s":"a \\"quoted\\" {x}, [y]","e":[],"o":{}}';
    expect(reindentJson(raw)).toBe(
      '{\n  "amount": 125000.50,\n  "big": 12345678901234567890,\n  "s": "a \\"quoted\\" {x}, [y]",\n  "e": [],\n  "o": {}\n}',
    );
  });
});

describe('csvLine', () => {
  it('quotes only what RFC 4180 requires and ends with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', ''])).toBe('a,"b,c","say ""hi""","two\nlines",\r\n');
  });
});

describe('formatting for people', () => {
  it('groups amounts the Nepali way with two decimals', () => {
    expect(formatAmount(125000.5)).toBe('1,25,000.50');
    expect(formatAmount(1234567)).toBe('12,34,567.00');
    expect(formatAmount(-45)).toBe('-45.00');
    expect(formatAmount(null)).toBe('');
  });

  it('shortens ISO date-times (the rest: time.test.ts)', () => {
    expect(formatTimestamp('2026-03-04T05:06:07Z', { zone: 'UTC' })).toBe('2026-03-04 05:06 UTC');
    expect(formatTimestamp('2026-03-04', { zone: 'UTC' })).toBe('2026-03-04');
  });

  it('removes control characters but keeps tabs and line breaks', () => {
    expect(printable('a\u001b[2Jb\tc\nd\u0007')).toBe('a[2Jb\tc\nd');
  });

  it('removes the C1 controls and the bidirectional ones, which could make a name read as another', () => {
    expect(printable('a\u009b31mb\u202ec\u2066d\u200fe\u061cf')).toBe('a31mbcdef');
    expect(oneLine(' a\u202e\n\u009bb ')).toBe('a b');
  });

  it('escapes in JSON text what printable drops, so it still means the same value', () => {
    const value = { 'k\u202e': 'a\u009bb\u007fc\u2069', n: 1 };
    const text = terminalJson(JSON.stringify(value));
    expect(text).toBe('{"k\\u202e":"a\\u009bb\\u007fc\\u2069","n":1}');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('colorEnabled', () => {
  const cases: Array<[Record<string, string>, boolean, boolean, boolean]> = [
    [{}, true, false, true],
    [{}, false, false, false],
    [{ NO_COLOR: '1' }, true, false, false],
    [{ NO_COLOR: '' }, true, false, true],
    [{}, true, true, false],
    [{ CLICOLOR: '0' }, true, false, false],
    [{ FORCE_COLOR: '1' }, false, false, true],
    [{ FORCE_COLOR: '0' }, false, false, false],
    [{ CLICOLOR_FORCE: '1' }, false, false, true],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, false, false],
    [{ FORCE_COLOR: '1' }, false, true, false],
    [{ TERM: 'dumb' }, true, false, false],
  ];
  it.each(cases)('env %j, tty %s, --no-color %s → %s', (env, tty, flag, expected) => {
    expect(colorEnabled(env, tty, flag)).toBe(expected);
  });
});

describe('prettyJson', () => {
  it('is the reply re-indented, exact in every case', () => {
    fc.assert(
      fc.property(fc.json(), fc.boolean(), (text, spaced) => {
        const raw = spaced ? JSON.stringify(JSON.parse(text), null, 3) : text;
        expect(prettyJson(raw, JSON.parse(raw))).toBe(reindentJson(raw));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps digits the parsed value would lose', () => {
    const raw = '{"amount":125000.50,"n":1.0e-7}';
    expect(prettyJson(raw, JSON.parse(raw))).toBe('{\n  "amount": 125000.50,\n  "n": 1.0e-7\n}');
  });
});
