// The records of a view (docs/reference/output.md, "Reading replies"), cut from the reply's text:
// one per item of the lists it holds, a `list` column naming each, with what the row belongs to;
// and a view's CSV, whose cells hold no JSON: nested values in dotted columns, lists of scalars
// joined. Numbers keep every digit.
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { UnexpectedReplyError } from '../../src/core/errors.js';
import { flatCells } from '../../src/core/output/flat-cells.js';
import { listItemTexts } from '../../src/core/output/raw-records.js';
import { flatCsvPieces, jsonLinePieces, MAX_CSV_COLUMNS } from '../../src/core/output/records.js';

const csv = (records: string[]) => [...flatCsvPieces(records)].join('');
const ndjson = (records: string[]) => [...jsonLinePieces(records)].join('');

describe('flatCells: one record as CSV cells with no JSON in them', () => {
  it('writes nested objects in dotted columns and the items of a nested list by their index', () => {
    const cells = flatCells(
      '{"id":"t1","pfc":{"primary":"FOOD","detailed":"FOOD_GROCERIES"},"counterparties":[{"type":"merchant","name":"Big Mart"},{"type":"wallet"}]}',
    );
    expect([...cells]).toEqual([
      ['id', 't1'],
      ['pfc.primary', 'FOOD'],
      ['pfc.detailed', 'FOOD_GROCERIES'],
      ['counterparties.0.type', 'merchant'],
      ['counterparties.0.name', 'Big Mart'],
      ['counterparties.1.type', 'wallet'],
    ]);
  });

  it('joins a list of plain values with ; (docs/reference/output.md, "CSV"); an empty list or object is a blank cell; null is blank', () => {
    expect([
      ...flatCells('{"scopes":["identity","income"],"flags":[],"extra":{},"note":null,"ok":true}'),
    ]).toEqual([
      ['scopes', 'identity; income'],
      ['flags', ''],
      ['extra', ''],
      ['note', ''],
      ['ok', 'true'],
    ]);
  });

  it('keeps every digit of a number, decodes strings, and reads a key given twice as JSON.parse does', () => {
    const cells = flatCells(
      '{ "big": 12345678901234567890, "huge": -1e400, "cash": 125000.50, "s": "a\\"b\\u00e9", "k": {"x": 1}, "k": 2 }',
    );
    expect([...cells]).toEqual([
      ['big', '12345678901234567890'],
      ['huge', '-1e400'],
      ['cash', '125000.50'],
      ['s', 'a"bé'],
      ['k', '2'],
    ]);
  });

  it('writes a record that is no object under `value`', () => {
    expect([...flatCells('[1, 2.50]')]).toEqual([['value', '1; 2.50']]);
    expect([...flatCells('"text"')]).toEqual([['value', 'text']]);
  });

  it('keeps a value nested past the depth bound whole, without overflowing the stack', () => {
    const deep = '{"a":' + '{"b":'.repeat(100_000) + '1' + '}'.repeat(100_000) + '}';
    const cells = flatCells(deep);
    expect(cells.size).toBe(1);
    const [name, text] = [...cells][0]!;
    expect(name).toMatch(/^a(\.b)+$/);
    expect(text.startsWith('{"b":')).toBe(true);
  });
});

describe('listItemTexts: the records of a view that holds lists', () => {
  const COUNTERPARTIES = `{
    "report_id": "cl_abc123", "currency": "NPR", "total_inflow": 12345678901234567890, "total_outflow": 1e400,
    "by_type": [ {"type": "merchant", "inflow": 0, "outflow": 100727.80} ],
    "top_people": [ {"name": "Krishna Prasad Joshi", "outflow": 168000} ],
    "top_merchants": [ {"name": "Bhat-Bhateni", "outflow": 42000.5}, {"name": "Daraz", "outflow": 3254.96} ]
  }`;

  it('makes one record per item of each list, `list` first, then the view’s own values, then the item’s', () => {
    expect(listItemTexts(COUNTERPARTIES)).toEqual([
      '{"list":"by_type","report_id":"cl_abc123","currency":"NPR","total_inflow":12345678901234567890,"total_outflow":1e400,"type":"merchant","inflow":0,"outflow":100727.80}',
      '{"list":"top_people","report_id":"cl_abc123","currency":"NPR","total_inflow":12345678901234567890,"total_outflow":1e400,"name":"Krishna Prasad Joshi","outflow":168000}',
      '{"list":"top_merchants","report_id":"cl_abc123","currency":"NPR","total_inflow":12345678901234567890,"total_outflow":1e400,"name":"Bhat-Bhateni","outflow":42000.5}',
      '{"list":"top_merchants","report_id":"cl_abc123","currency":"NPR","total_inflow":12345678901234567890,"total_outflow":1e400,"name":"Daraz","outflow":3254.96}',
    ]);
  });

  it('their CSV: a row per item, the union of the columns, every digit kept', () => {
    expect(csv(listItemTexts(COUNTERPARTIES))).toBe(
      'list,report_id,currency,total_inflow,total_outflow,type,inflow,outflow,name\r\n' +
        'by_type,cl_abc123,NPR,12345678901234567890,1e400,merchant,0,100727.80,\r\n' +
        'top_people,cl_abc123,NPR,12345678901234567890,1e400,,,168000,Krishna Prasad Joshi\r\n' +
        'top_merchants,cl_abc123,NPR,12345678901234567890,1e400,,,42000.5,Bhat-Bhateni\r\n' +
        'top_merchants,cl_abc123,NPR,12345678901234567890,1e400,,,3254.96,Daraz\r\n',
    );
  });

  it('finds lists inside objects, named by their path, with the values of each object that holds them (an empty list says nothing)', () => {
    const raw =
      '{"scopes":["identity","income"],"data":{"identity":{"account_holder":"RAM"},"income":{"salary_amount":72000.00,"monthly_credits":[{"month":"2026-03","total_credits":85000}],"income_transactions":[]}}}';
    expect(listItemTexts(raw)).toEqual([
      '{"list":"data.income.monthly_credits","scopes":["identity","income"],"data.income.salary_amount":72000.00,"month":"2026-03","total_credits":85000}',
    ]);
  });

  it('leaves a list inside an item to the item: its CSV cells go by index', () => {
    const raw = '{"income_transactions":[{"id":"t1","counterparties":[{"name":"Leapfrog"}]}]}';
    expect(listItemTexts(raw)).toEqual([
      '{"list":"income_transactions","id":"t1","counterparties":[{"name":"Leapfrog"}]}',
    ]);
    expect(csv(listItemTexts(raw))).toBe(
      'list,id,counterparties.0.name\r\nincome_transactions,t1,Leapfrog\r\n',
    );
  });

  it('an item’s own field wins over a value of the view of the same name; an item that is no object is its `value`', () => {
    expect(listItemTexts('{"currency":"NPR","streams":[{"currency":"USD"},7,[1,2]]}')).toEqual([
      '{"list":"streams","currency":"USD"}',
      '{"list":"streams","currency":"NPR","value":7}',
      '{"list":"streams","currency":"NPR","value":[1,2]}',
    ]);
  });

  it('names the list column `_list` when a field is already called `list`', () => {
    expect(listItemTexts('{"list":"mine","items":[{"a":1}]}')).toEqual([
      '{"_list":"items","list":"mine","a":1}',
    ]);
    expect(listItemTexts('{"items":[{"list":1,"_list":2}]}')).toEqual([
      '{"__list":"items","list":1,"_list":2}',
    ]);
  });

  it('a view holding no item of a list is one record, itself; a top-level array is its items', () => {
    expect(listItemTexts('{ "score": 782, "factors": [], "tags": ["a"] }\n')).toEqual([
      '{"score":782,"factors":[],"tags":["a"]}',
    ]);
    expect(listItemTexts(' [ {"a": 1.0}, 2 ] ')).toEqual(['{"a":1.0}', '2']);
    expect(listItemTexts(' "text" ')).toEqual(['"text"']);
  });

  it('NDJSON writes each record on its line', () => {
    expect(ndjson(listItemTexts('{"x":[{"a":1},{"a":2}]}'))).toBe(
      '{"list":"x","a":1}\n{"list":"x","a":2}\n',
    );
    expect(ndjson([])).toBe('');
  });

  it('no CSV cell holds a JSON object or array, and every record is valid JSON (property)', () => {
    // Text without brackets: a cell that opens one was made by svc.
    const text = fc.string({ unit: fc.constantFrom(...'ab ,"\\\n-=1.'), maxLength: 4 });
    const key = fc
      .string({ unit: fc.constantFrom(...'abcdel_.'), minLength: 1, maxLength: 5 })
      .filter((k) => k !== '__proto__');
    const { value } = fc.letrec<{
      value: unknown;
      list: unknown[];
      object: Record<string, unknown>;
    }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', maxDepth: 4 },
        text,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        tie('list'),
        tie('object'),
      ),
      list: fc.array(tie('value'), { maxLength: 3 }),
      object: fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
    }));
    fc.assert(
      fc.property(value, fc.boolean(), (reply, pretty) => {
        const records = listItemTexts(JSON.stringify(reply, null, pretty ? 2 : undefined));
        for (const record of records) expect(() => JSON.parse(record)).not.toThrow();
        const rows = parseCsv(csv(records), { relax_column_count: false });
        for (const cell of rows.slice(1).flat()) expect(cell).not.toMatch(/^'?[[{]/);
      }),
      { numRuns: 300 },
    );
  });

  it('is exit 10 past the CSV column bound, before anything is written', () => {
    const wide = `{"x":[${Array.from({ length: MAX_CSV_COLUMNS }, (_, i) => `{"f${i}":1}`).join(',')}]}`;
    expect(() => flatCsvPieces(listItemTexts(wide)).next()).toThrow(UnexpectedReplyError);
  });
});
