// The pure parts of reading replies: the reader's notes and failures, the generic view, the
// records of ndjson and CSV, and the dataset finders, on the documented examples and on anything.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { itemListOf, selectorsOf, seriesListOf } from '../../src/commands/data/items.js';
import { UnexpectedReplyError } from '../../src/core/errors.js';
import { otherFields } from '../../src/core/json/values.js';
import { genericView, withRest } from '../../src/core/output/generic.js';
import { prettyJson } from '../../src/core/output/json.js';
import { createPaint } from '../../src/core/output/paint.js';
import { csvPieces, fallbackRecords, ndjsonText } from '../../src/core/output/records.js';
import { ReplyReading } from '../../src/service/reading.js';

const csvText = (records: readonly unknown[]) => [...csvPieces(records)].join('');
import { renderTable } from '../../src/core/output/render.js';

const plain = await createPaint(false);
const BAD_WORDS = /undefined|NaN|\[object Object\]/;

function tables(view: Parameters<typeof renderTable>[0]): string[] {
  return [
    renderTable(view, { terminal: false, width: 80, paint: plain }),
    renderTable(view, { terminal: true, width: 80, paint: plain }),
  ];
}

describe('ReplyReading', () => {
  it('notes each documented field a reply lacks, once', () => {
    const reading = new ReplyReading('GET /v1/x');
    reading.lacks('plan');
    reading.lacks('plan');
    expect(reading.debugLines()).toEqual([
      'debug: GET /v1/x: the reply has no documented field "plan"',
    ]);
  });

  it('fails with exit 10 for the structure a command walks, naming it', () => {
    const reading = new ReplyReading('GET /v1/reports');
    expect(reading.wrong('data', 'a list', {})).toBeInstanceOf(UnexpectedReplyError);
    expect(reading.wrong('data', 'a list', undefined).message).toMatch(
      /"data" should be a list, but it is missing/,
    );
    expect(reading.wrong('', 'an object', []).message).toMatch(
      /the body should be an object, but it is a list/,
    );
  });
});

describe('the generic view', () => {
  it('lists scalars with dotted keys, lists of objects as tables with the union of their keys', () => {
    const body = {
      plan: 'growth',
      data_api: { used: 3, quota: 10 },
      rows: [{ a: 1 }, { b: 'x', c: { d: true } }],
      tags: ['a', 'b'],
    };
    const [tabs] = tables(genericView(body));
    expect(tabs).toBe(
      'FIELD\tVALUE\nplan\tgrowth\ndata_api.used\t3\ndata_api.quota\t10\ntags\ta, b\n\nRows\nA\tB\tC.D\n1\t\t\n\tx\tyes\n',
    );
  });

  it('shows a map of like records as a table, one row per name; a lone table in a pipe has no heading', () => {
    const view = genericView({
      merchant_categories: {
        groceries: { count: 12, total: 8420 },
        dining: { count: 3, total: 900 },
      },
    });
    const [tabs, boxed] = tables(view);
    expect(tabs).toBe('NAME\tCOUNT\tTOTAL\ngroceries\t12\t8420\ndining\t3\t900\n');
    expect(boxed!.split('\n')[0]).toBe('Merchant categories');
  });

  it('puts the leftover scalars of a designed field list into it', () => {
    const designed = {
      kind: 'record' as const,
      record: { a: 1 },
      fields: [{ key: 'a', header: 'A', value: (x: { a: number }) => x.a }],
    };
    const [tabs] = tables(withRest(designed, { extra: { n: 2 }, list: [{ z: 1 }] }));
    expect(tabs).toBe('FIELD\tVALUE\na\t1\nextra.n\t2\n\nList\nZ\n1\n');
  });

  it('shows any JSON value without failing and without undefined, NaN or [object Object]', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        // A value that itself says "NaN" (a key, a string) may show it.
        fc.pre(!BAD_WORDS.test(JSON.stringify(value)));
        for (const text of tables(genericView(value))) expect(text).not.toMatch(BAD_WORDS);
      }),
      { numRuns: 300 },
    );
  });

  it('bounds its depth: a reply nested 100,000 deep is shown, not a stack overflow', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    const [tabs] = tables(genericView({ deep: { a: deep } }));
    expect(tabs).toContain('…');
    // Indenting it would take gigabytes: it is given as received.
    expect(prettyJson('['.repeat(100_000) + ']'.repeat(100_000), deep)).toBe(
      '['.repeat(100_000) + ']'.repeat(100_000),
    );
  });
});

describe('records of ndjson and CSV', () => {
  it('falls back to a top-level list, then a list `data`, then the reply as one record', () => {
    expect(fallbackRecords([1, 2])).toEqual([1, 2]);
    expect(fallbackRecords({ data: [3] })).toEqual([3]);
    expect(fallbackRecords({ data: { a: 1 } })).toEqual([{ data: { a: 1 } }]);
  });

  it('writes CSV with the union of the keys, nested objects in dotted columns and lists of plain values joined with ; (docs/reference/output.md, "CSV")', () => {
    expect(
      csvText([
        { a: 1, n: { x: [1, 2] } },
        { b: 'q,"r"', a: null },
      ]),
    ).toBe('a,n.x,b\r\n1,1; 2,\r\n,,"q,""r"""\r\n');
  });

  it('writes CSV that parses back to one row per record, for any records', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }), (records) => {
        const text = csvText(records);
        if (text === '') return;
        const rows = parse(text, { relax_column_count: false });
        expect(rows.length).toBe(records.length + 1);
        // A record may hold the word itself ({"": "NaN"}): only words the records lack are svc's.
        if (!BAD_WORDS.test(JSON.stringify(records))) expect(text).not.toMatch(BAD_WORDS);
      }),
      { numRuns: 300 },
    );
  });

  it('writes one JSON line per record, as received', () => {
    expect(ndjsonText([{ a: 1 }, 'x'])).toBe('{"a":1}\n"x"\n');
  });
});

describe('dataset replies', () => {
  const cpi = {
    data: {
      month: '2026-03',
      indicators: [
        {
          indicator: 'PCPI_IX',
          label: 'Overall index, index',
          value: 106.96442,
          scale: 0,
          absolute: 106.96442,
          unit: 'index',
        },
      ],
    },
  };
  const rates = {
    data: [{ metric: 'base-rate', label: 'Base Rate', value: 5.0, unit: 'percent' }],
  };
  const pnl = {
    data: {
      month: '2025-07',
      line_items: [
        {
          key: 'income.interest-income',
          label: 'Interest Income',
          value: 567193.568,
          unit: 'NPR_mn',
          section: 'Income',
          code: '1',
        },
      ],
    },
  };

  it('finds the line items and their selector in each documented form', () => {
    expect(selectorsOf(itemListOf(cpi, 'indicator'))).toEqual([
      { value: 'PCPI_IX', label: 'Overall index, index', unit: 'index', section: undefined },
    ]);
    expect(itemListOf(rates, 'metric')?.selectorField).toBe('metric');
    // pnl items carry both a key and a code: the key is the selector.
    expect(itemListOf(pnl, 'key')?.selectorField).toBe('key');
    expect(
      itemListOf({ data: { rows: [{ code: 'CBS.RM', name: 'Reserve money' }] } }, 'indicator')
        ?.selectorField,
    ).toBe('code');
    expect(itemListOf({ data: { month: '2026-03' } }, 'key')).toBeUndefined();
  });

  it('finds a series under any names: a month-like field and a numeric one', () => {
    const series = seriesListOf({
      data: {
        indicator: 'PCPI_IX',
        series: [
          { date: '2024-01', obs: 101.2 },
          { date: '2024-02', obs: 102 },
        ],
      },
    });
    expect(series).toMatchObject({ path: 'data.series', monthField: 'date', valueField: 'obs' });
    expect(seriesListOf({ data: [{ month: '2024-01', value: 1 }] })).toMatchObject({
      path: 'data',
      monthField: 'month',
      valueField: 'value',
    });
    expect(seriesListOf({ data: { points: [{ label: 'x', value: 1 }] } })).toBeUndefined();
  });
});

describe('a designed view over a reply of another shape', () => {
  it('leaves a value that is no object over whole, so nothing is hidden', () => {
    expect({ ...otherFields([1, 2, 3], ['plan']) }).toEqual({ value: [1, 2, 3] });
    expect({ ...otherFields('text', []) }).toEqual({ value: 'text' });
    expect({ ...otherFields(null, []) }).toEqual({});
  });
});

describe('odd field names', () => {
  it('keeps __proto__ and names that collide once dotted, each in its own place', () => {
    const body = JSON.parse(
      '{"__proto__": {"x": 1}, "a.b": 1, "a": {"b": 2}, "rows": [{"__proto__": "p", "k": 1}]}',
    ) as unknown;
    const [tabs] = tables(genericView(body));
    expect(tabs).toBe('FIELD\tVALUE\n__proto__.x\t1\na.b\t1\na.b\t2\n\nRows\n  PROTO  \tK\np\t1\n');
    const designed = { kind: 'record' as const, record: {}, fields: [] };
    expect(tables(withRest(designed, otherFields(body, ['a.b', 'a', 'rows'])))[0]).toBe(
      'FIELD\tVALUE\n__proto__.x\t1\n',
    );
  });
});
