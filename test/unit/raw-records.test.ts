// The records of -o ndjson and -o csv as the reply's text has them (docs/reference/output.md,
// "Reading replies"): numbers with every digit JSON.parse would lose, nested values and keys as
// received, a key given twice as JSON.parse takes it; records a command made itself are written
// from their values. CSV reads the records as exact-json.ts reads the reply, and writes the cells a
// record's text would give.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { exactBody } from '../../src/core/json/exact-json.js';
import { recordTexts } from '../../src/core/output/raw-records.js';
import { csvPieces, flatCsvPieces, ndjsonText } from '../../src/core/output/records.js';

/**
 * The CSV of `list` (a path of keys in the reply), its records read as a command reads them: every
 * number as received.
 */
function csvOf(raw: string, ...path: string[]): string {
  const body = exactBody(raw, JSON.parse(raw));
  const list = path.reduce(
    (value, key) => (value as Record<string, unknown>)[key],
    body,
  ) as unknown[];
  return [...csvPieces(list)].join('');
}

/**
 * The records of `list` (a path of keys in the reply) with their texts, as a command names them.
 */
function read(raw: string, ...path: string[]) {
  const body = JSON.parse(raw) as unknown;
  const list = path.reduce(
    (value, key) => (value as Record<string, unknown>)[key],
    body,
  ) as unknown[];
  return { list, texts: recordTexts(raw, body, list) };
}

const RAW =
  '{ "count": 2, "transactions": [\n  {"id": "t1", "amount": 125000.50, "big": 12345678901234567890, "tiny": -1e400, "n": {"x": 1.0, "s": "a b"}},\n  {"id": "t2", "amount": -12.5}\n] }';

describe('records as received', () => {
  it('NDJSON: each record on one line, every digit kept', () => {
    const { list, texts } = read(RAW, 'transactions');
    expect(ndjsonText(list, texts)).toBe(
      '{"id":"t1","amount":125000.50,"big":12345678901234567890,"tiny":-1e400,"n":{"x":1.0,"s":"a b"}}\n{"id":"t2","amount":-12.5}\n',
    );
  });

  it('CSV: numbers as received, nested ones too in their dotted columns, a plain number never taken for a formula', () => {
    expect(csvOf(RAW, 'transactions')).toBe(
      'id,amount,big,tiny,n.x,n.s\r\nt1,125000.50,12345678901234567890,-1e400,1.0,a b\r\nt2,-12.5,,,,\r\n',
    );
  });

  it('finds the list a few objects deep, a top-level list, and the reply as one record', () => {
    const nested = read('{"data":{"results":[1.50,{"a":2.0}]}}', 'data', 'results');
    expect(ndjsonText(nested.list, nested.texts)).toBe('1.50\n{"a":2.0}\n');
    expect(csvOf('{"data":{"results":[1.50,{"a":2.0}]}}', 'data', 'results')).toBe(
      'value,a\r\n1.50,\r\n,2.0\r\n',
    );
    const top = read('[ {"a": 1e2} ]');
    expect(ndjsonText(top.list, top.texts)).toBe('{"a":1e2}\n');
    const body = JSON.parse('{"score": 0.10}') as unknown;
    expect(ndjsonText([body], recordTexts('{"score": 0.10}\n', body, [body]))).toBe(
      '{"score":0.10}\n',
    );
  });

  it('reads a key given twice as JSON.parse does, and a key with escapes', () => {
    const twice = read('{"data":[{"a":1.0}],"data":[{"a":2.0}]}', 'data');
    expect(ndjsonText(twice.list, twice.texts)).toBe('{"a":2.0}\n');
    expect(csvOf('{"d\\u0061ta":[{"\\u0061":3.0}]}', 'data')).toBe('a\r\n3.0\r\n');
  });

  it('has no texts for records a command made itself: they are written from their values', () => {
    const body = JSON.parse('{"data":[{"a":1.50}]}') as { data: unknown[] };
    expect(
      recordTexts(
        '{"data":[{"a":1.50}]}',
        body,
        body.data.map((item) => item),
      ),
    ).toBeUndefined();
  });

  it('agrees with the parsed records wherever parsing keeps every digit (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }),
        fc.boolean(),
        (items, pretty) => {
          const raw = JSON.stringify({ data: items }, null, pretty ? 2 : undefined);
          const { list, texts } = read(raw, 'data');
          expect(ndjsonText(list, texts)).toBe(ndjsonText(list));
          // The cells of a record as read are those of its text.
          expect(csvOf(raw, 'data')).toBe(
            [...flatCsvPieces(list.map((_, i) => texts!.record(i)))].join(''),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
