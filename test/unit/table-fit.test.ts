// Tables and text fitted to the terminal (core/output/fit.ts, render.ts,
// core/stream/table-writers.ts): the one rule of who gives up room (headers wrap, then free text,
// then other text between words; ids, amounts and names never cut), the card a row when no
// narrowing fits, field lists wrapped with a hanging indent, prose wrapped between words and never
// inside a number or an id, and a pipe that stays one line per row whatever the width. Widths are
// measured here on their own: colour codes stripped, code points counted, East Asian wide
// characters as two.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

import { isRecord } from '../../src/core/json/values.js';
import {
  cutToWidth,
  type FitColumn,
  fitWidths,
  visibleWidth,
  wrapText,
} from '../../src/core/output/fit.js';
import { printableDeep } from '../../src/core/output/format.js';
import { genericView } from '../../src/core/output/generic.js';
import { createPaint, type Paint } from '../../src/core/output/paint.js';
import { renderTable } from '../../src/core/output/render.js';
import {
  type Column,
  type ListView,
  pipeRemarks,
  type RecordView,
  type SectionsView,
  type View,
} from '../../src/core/output/view.js';
import { AlignedTableWriter, type StreamColumn } from '../../src/core/stream/table-writers.js';
import { documented, documentedNames } from '../support/fixtures.js';
import type { WideTable } from './render-apart.js';

const plain = await createPaint(false);
const colour = await createPaint(true);

const ANSI = /\u001b\[[0-9;]*m/g;
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const strip = (text: string) => text.replace(ANSI, '');
/** Columns a line takes on a terminal: code points, wide characters two. */
const width = (line: string) =>
  [...strip(line)].reduce((n, char) => n + (WIDE.test(char) ? 2 : 1), 0);
const screen = (text: string) => strip(text).replace(/\n$/, '').split('\n');
const BOX = /[─│┌┐└┘├┤┬┴┼]/;

const terminal = (view: View, columns: number, paint: Paint = plain) =>
  renderTable(view, { terminal: true, width: columns, paint });
/** -o wide: every column, free text wrapped. */
const wide = (view: View, columns: number, paint: Paint = plain) =>
  renderTable(view, { terminal: true, width: columns, paint, wide: true });
const pipe = (view: View, columns: number, paint: Paint = plain) =>
  renderTable(view, { terminal: false, width: columns, paint });

function expectFits(text: string, columns: number): void {
  for (const line of screen(text)) expect(width(line), line).toBeLessThanOrEqual(columns);
}

/**
 * expectFits for tables of many thousands of lines: one assertion, naming the first line too wide.
 */
function expectAllFit(text: string, columns: number): void {
  expect(screen(text).find((line) => width(line) > columns)).toBeUndefined();
}

/** Every value appears whole on one line of the screen. */
function expectWhole(text: string, values: readonly string[]): void {
  const lines = screen(text);
  for (const value of values)
    expect(
      lines.some((line) => line.includes(value)),
      `${value} whole on one line`,
    ).toBe(true);
}

// ---- a designed table -----------------------------------------------------------------------

interface Stream {
  counterparty: string;
  category: string;
  amount: string;
  id: string;
  note: string;
}

const STREAMS: Stream[] = [
  {
    counterparty: 'Leapfrog Technology Pvt Ltd',
    category: 'salary',
    amount: '1,25,000.00',
    id: 'str_0001',
    note: 'Credited on the tenth of every month since the account was opened',
  },
  {
    counterparty: 'NABIL Bank Home Loan',
    category: 'loan_emi',
    amount: '42,350.00',
    id: 'str_0002',
    note: 'EMI',
  },
  {
    counterparty: 'WorldLink Communications',
    category: 'subscription',
    amount: '1,800.00',
    id: 'str_0003',
    note: 'Internet, paid by QR',
  },
];

const STREAM_COLUMNS: Column<Stream>[] = [
  { key: 'id', header: 'ID', value: (s) => s.id, keep: true },
  { key: 'counterparty', header: 'COUNTERPARTY', value: (s) => s.counterparty, flex: true },
  { key: 'category', header: 'CATEGORY', value: (s) => s.category },
  {
    key: 'average_amount',
    header: 'AVERAGE AMOUNT',
    value: (s) => s.amount,
    align: 'right',
    keep: true,
  },
  { key: 'note', header: 'NOTE', value: (s) => s.note, flex: true },
];

const list = (extra: Partial<ListView<Stream>> = {}): ListView<Stream> => ({
  kind: 'list',
  rows: STREAMS,
  columns: STREAM_COLUMNS,
  ...extra,
});

describe('fitWidths: who gives up room', () => {
  const col = (fit: FitColumn['fit'], header: string, ...cells: string[]): FitColumn => ({
    fit,
    header,
    cells,
  });

  it('leaves a table that fits as it is', () => {
    expect(
      fitWidths([col('keep', 'ID', 'rpt_1'), col('wrap', 'NOTE', 'a short note')], 40),
    ).toEqual([5, 12]);
  });

  it('wraps a header first, giving up the whole line it frees at once', () => {
    // AVERAGE AMOUNT over values of 9: one wrap frees 5 columns, more than the 1 needed.
    expect(
      fitWidths(
        [col('keep', 'AVERAGE AMOUNT', '42,350.00'), col('wrap', 'NOTE', 'x'.repeat(20))],
        33,
      ),
    ).toEqual([9, 20]);
  });

  it('narrows free text first, the widest first, then other text between its words; kept columns never', () => {
    const columns = [
      col('keep', 'ID', 'rpt_e8699f830adc84b8'),
      col('words', 'STATUS', 'EARLY DETECTION'),
      col('wrap', 'NOTE', 'one two three four five six seven eight'),
    ];
    expect(fitWidths(columns, 20 + 15 + 39)).toEqual([20, 15, 39]);
    // The free text narrows to its floor (10) before the other text gives up anything.
    expect(fitWidths(columns, 20 + 15 + 20)).toEqual([20, 15, 20]);
    expect(fitWidths(columns, 20 + 15 + 10)).toEqual([20, 15, 10]);
    expect(fitWidths(columns, 20 + 9 + 10)).toEqual([20, 9, 10]);
    // The other text keeps its longest word whole (DETECTION): nothing narrower fits.
    expect(fitWidths(columns, 20 + 8 + 10)).toBeUndefined();
  });

  it('cuts a cut column down to a few letters, keeps a wrapped one as wide as its words of up to 24', () => {
    expect(fitWidths([col('cut', 'HASH', 'f'.repeat(64)), col('keep', 'ID', 'x')], 10)).toEqual([
      8, 2,
    ]);
    expect(
      fitWidths([col('cut', 'HASH', 'f'.repeat(64)), col('keep', 'ID', 'x')], 9),
    ).toBeUndefined();
    expect(fitWidths([col('wrap', 'NAME', 'Kanchenjunga Departmental Store')], 5)).toBeUndefined();
    expect(fitWidths([col('wrap', 'NAME', 'Kanchenjunga Departmental Store')], 12)).toEqual([12]);
  });

  it('of columns equally wide, narrows the first first', () => {
    const text = 'one two three four five six seven';
    expect(fitWidths([col('wrap', 'A', text), col('wrap', 'B', text)], 65)).toEqual([32, 33]);
    expect(
      fitWidths(
        [col('wrap', 'A', text), col('wrap', 'B', text), col('words', 'C', text)],
        30 + 30 + 33,
      ),
    ).toEqual([30, 30, 33]);
    expect(
      fitWidths(
        [col('wrap', 'A', text), col('wrap', 'B', text), col('words', 'C', text)],
        29 + 30 + 33,
      ),
    ).toEqual([29, 30, 33]);
  });

  it('never makes a column narrower than a date glued to its time: it is one word', () => {
    // render.ts glues a timestamp's parts with no-break spaces; wrapping breaks only at spaces and
    // tabs.
    const when = '2026-02-10\u00a010:30\u00a0UTC';
    expect(
      fitWidths(
        [col('keep', 'ID', 'rpt_e8699f830adc84b8'), col('words', 'ISSUED AT', when)],
        20 + 20,
      ),
    ).toEqual([20, 20]);
    expect(
      fitWidths(
        [col('keep', 'ID', 'rpt_e8699f830adc84b8'), col('words', 'ISSUED AT', when)],
        20 + 19,
      ),
    ).toBeUndefined();
  });

  it('keeps a column at least as wide as the values it must keep (minWidth)', () => {
    expect(
      fitWidths(
        [
          {
            fit: 'cut',
            header: 'INPUT',
            cells: ['9756038350856888', 'A long name as on a statement'],
            minWidth: 16,
          },
        ],
        16,
      ),
    ).toEqual([16]);
    expect(
      fitWidths(
        [
          {
            fit: 'cut',
            header: 'INPUT',
            cells: ['9756038350856888', 'A long name as on a statement'],
            minWidth: 16,
          },
        ],
        15,
      ),
    ).toBeUndefined();
  });
});

describe('wrapping and cutting text', () => {
  it('wraps at word boundaries, keeping its own line breaks', () => {
    expect(wrapText('The average daily balance covers 1.3 months of spending.', 20)).toEqual([
      'The average daily',
      'balance covers 1.3',
      'months of spending.',
    ]);
    expect(wrapText('one\ntwo three', 5)).toEqual(['one', 'two', 'three']);
  });

  it('breaks a plain word longer than the line after a slash where it can', () => {
    expect(wrapText('/usr/share/doc/statements/examples/verify', 30)).toEqual([
      '/usr/share/doc/statements/',
      'examples/verify',
    ]);
  });

  it('never breaks a URL, a number or an id, even wider than the line: it stands alone on one', () => {
    expect(wrapText('http://127.0.0.1:18787/verify/stmt_edd965552fcfdf1d', 40)).toEqual([
      'http://127.0.0.1:18787/verify/stmt_edd965552fcfdf1d',
    ]);
    expect(wrapText('Transactions of rpt_e8699f830adc84b8 from 1,25,000.00', 12)).toEqual([
      'Transactions',
      'of',
      'rpt_e8699f830adc84b8',
      'from',
      '1,25,000.00',
    ]);
  });

  it('closes colour at each line break and opens it again on the next line', () => {
    const lines = wrapText(colour.good('all of this is green'), 8);
    expect(lines.map(strip)).toEqual(['all of', 'this is', 'green']);
    for (const line of lines) expect(line).toMatch(/^\u001b\[32m.*(\u001b\[0m|\u001b\[39m)$/);
  });

  it('cuts with an ellipsis, wide characters counting two, colour closed', () => {
    expect(cutToWidth('39203d1316de0513390ca0624b45', 8)).toBe('39203d1…');
    expect(cutToWidth('日本語のテキスト', 7)).toBe('日本語…');
    expect(visibleWidth(cutToWidth('日本語のテキスト', 7))).toBe(7);
    expect(cutToWidth(colour.bad('revoked and more'), 5)).toBe('\u001b[31mrevo…\u001b[0m');
  });
});

describe('a table on a terminal', () => {
  it('fits 80 columns boxed, a row a line: the free text cut with an ellipsis, ids and amounts whole, the header wrapped', () => {
    const text = terminal(list(), 80, colour);
    expectFits(text, 80);
    expect(text).toMatch(BOX);
    expectWhole(text, [
      'str_0001',
      'str_0002',
      'str_0003',
      '1,25,000.00',
      '42,350.00',
      '1,800.00',
      'salary',
      'loan_emi',
      'subscription',
    ]);
    const lines = screen(text);
    expect(lines[1]).toMatch(/^│ ID +│ COUNTERPARTY +│ CATEGORY +│ +AVERAGE │ NOTE +│$/);
    expect(lines[2]).toMatch(/^│ +│ +│ +│ +AMOUNT │ +│$/);
    expect(lines).toHaveLength(4 + STREAMS.length + 1);
    expect(lines[4]).toMatch(
      /^│ str_0001 │ Leapfrog Techno… │ salary +│ 1,25,000.00 │ Credited on the… +│$/,
    );
    expect(lines[5]).toMatch(/^│ str_0002 │ NABIL Bank Home… │ loan_emi +│ +42,350.00 │ EMI +│$/);
  });

  it('-o wide fits 80 columns boxed: the free text wrapped between its words, nothing cut', () => {
    const text = wide(list(), 80, colour);
    expectFits(text, 80);
    expect(text).toMatch(BOX);
    expectWhole(text, ['str_0001', 'str_0002', 'str_0003', '1,25,000.00', '42,350.00', '1,800.00']);
    expect(text).not.toContain('…');
    expect(screen(text)[4]).toMatch(
      /^│ str_0001 │ Leapfrog +│ salary +│ 1,25,000.00 │ Credited on the +│$/,
    );
  });

  it('turns into one card a row when no narrowing fits: HEADER  value lines, a blank line between', () => {
    const text = terminal(list({ title: 'Recurring streams' }), 40);
    expectFits(text, 40);
    expect(text).not.toMatch(BOX);
    expect(screen(text).slice(0, 13)).toEqual([
      'Recurring streams',
      'ID              str_0001',
      'COUNTERPARTY    Leapfrog Technology Pvt',
      '                Ltd',
      'CATEGORY        salary',
      'AVERAGE AMOUNT  1,25,000.00',
      'NOTE            Credited on the tenth of',
      '                every month since the',
      '                account was opened',
      '',
      'ID              str_0002',
      'COUNTERPARTY    NABIL Bank Home Loan',
      'CATEGORY        loan_emi',
    ]);
    expectWhole(text, ['str_0001', '1,25,000.00', '42,350.00', '1,800.00']);
  });

  it('cards leave blank values out, and colour the headers as the table would', () => {
    const rows = [{ id: 'rpt_1', note: '' }];
    const view: ListView<(typeof rows)[number]> = {
      kind: 'list',
      rows,
      columns: [
        { key: 'id', header: 'ID', value: (r) => r.id, keep: true },
        { key: 'note', header: 'NOTE', value: (r) => r.note },
        { key: 'x', header: 'X'.repeat(30), value: () => 'y'.repeat(30), keep: true },
      ],
    };
    const text = terminal(view, 40, colour);
    // Labels take at most what leaves a value 20 columns; a longer one goes on a line of its own,
    // and a kept value too wide for the indent under it starts unindented, whole.
    expect(screen(text)).toEqual(['ID                  rpt_1', 'X'.repeat(30), 'y'.repeat(30)]);
    expect(text).toContain(colour.header('ID'.padEnd(18)));
  });

  it('keeps a date and its time on one line, or turns the table into cards', () => {
    const rows = [
      { id: 'stmt_edd965552fcfdf1d', issued: '2026-02-10T10:30:00Z', status: 'EARLY_DETECTION' },
    ];
    const view: ListView<(typeof rows)[number]> = {
      kind: 'list',
      rows,
      columns: [
        { key: 'id', header: 'ID', value: (r) => r.id, keep: true },
        { key: 'issued_at', header: 'ISSUED AT', value: (r) => r.issued },
        { key: 'status', header: 'STATUS', value: (r) => r.status },
      ],
    };
    for (const columns of [80, 60, 50]) {
      const text = terminal(view, columns);
      expectFits(text, columns);
      expectWhole(text, ['2026-02-10 10:30 UTC', 'stmt_edd965552fcfdf1d']);
    }
  });

  it('sections of a list fit, or turn into cards, one by one', () => {
    const view = list({
      section: {
        key: 'direction',
        header: 'DIRECTION',
        value: (s) => (s.id === 'str_0001' ? 'Inflow' : 'Outflow'),
      },
    });
    const text = terminal(view, 100);
    expectFits(text, 100);
    expect(screen(text).filter((line) => /^(Inflow|Outflow)$/.test(line))).toEqual([
      'Inflow',
      'Outflow',
    ]);
  });

  it('keeps East Asian wide characters inside the box', () => {
    const rows = [
      { id: 'rpt_1', name: '日本語の名前がとても長い会社の名前です' },
      { id: 'rpt_2', name: '한국어 회사 이름 주식회사' },
    ];
    const view: ListView<(typeof rows)[number]> = {
      kind: 'list',
      rows,
      columns: [
        { key: 'id', header: 'ID', value: (r) => r.id, keep: true },
        { key: 'name', header: 'NAME', value: (r) => r.name, flex: true },
      ],
    };
    for (const columns of [80, 40, 30]) {
      const text = terminal(view, columns, colour);
      expectFits(text, columns);
      expectWhole(text, ['rpt_1', 'rpt_2']);
    }
  });

  it('in a pipe nothing changes with the width: one header line, one tab-separated line a row; the footer is for stderr', () => {
    const footer =
      'Source: a long attribution sentence that is wider than any narrow terminal could show';
    const view: SectionsView = {
      kind: 'sections',
      title: 'Recurring streams',
      parts: [{ heading: 'Streams', view: list({ footer: [footer] }) }],
    };
    expect(pipe(view, 30)).toBe(pipe(view, 300));
    expect(pipe(view, 30).split('\n')).toEqual([
      'ID\tCOUNTERPARTY\tCATEGORY\tAVERAGE AMOUNT\tNOTE',
      ...STREAMS.map((s) => [s.id, s.counterparty, s.category, s.amount, s.note].join('\t')),
      '',
    ]);
    expect(pipeRemarks(view)).toEqual([footer]);
  });
});

describe('time linear in the cells and the words', () => {
  // Each table is rendered in a worker thread, stopped at a deadline: a renderer whose time grows
  // with the square of the rows or of a header's words takes many minutes on these, and in the
  // test's own thread its synchronous loop could not be timed out. Here each takes a few seconds
  // at most, a tenth of the deadline or less.
  const DEADLINE_MS = 60_000;
  let bundle: string;

  beforeAll(async () => {
    const built = await build({
      entryPoints: [fileURLToPath(new URL('./render-apart.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
    });
    bundle = built.outputFiles[0]!.text;
  });

  /** The table as rendered, or undefined when the worker was still rendering at the deadline. */
  async function renderApart(table: WideTable): Promise<string | undefined> {
    const worker = new Worker(bundle, { eval: true, workerData: table });
    try {
      return await new Promise<string | undefined>((resolve, reject) => {
        const timer = setTimeout(() => resolve(undefined), DEADLINE_MS);
        worker.once('message', (text: string) => {
          clearTimeout(timer);
          resolve(text);
        });
        worker.once('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
    } finally {
      await worker.terminate();
    }
  }

  it(
    'boxes 1,000 rows of two 1,000-column texts at 80 columns',
    async () => {
      const text = await renderApart({ rows: 1000, textLength: 1000, headerWords: 1, width: 80 });
      expect(text, 'rendered before the deadline').toBeDefined();
      expect(text).toMatch(BOX);
      expectAllFit(text!, 80);
      expectWhole(text!, ['txn_000000', 'txn_000999']);
    },
    2 * DEADLINE_MS,
  );

  it(
    'shows the same rows as cards at 40 columns',
    async () => {
      const text = await renderApart({ rows: 1000, textLength: 1000, headerWords: 1, width: 40 });
      expect(text, 'rendered before the deadline').toBeDefined();
      expect(text).not.toMatch(BOX);
      expectAllFit(text!, 40);
      expectWhole(text!, ['txn_000000', 'txn_000999']);
    },
    2 * DEADLINE_MS,
  );

  it(
    'wraps a header of 20,000 words to fit',
    async () => {
      const text = await renderApart({ rows: 20, textLength: 100, headerWords: 20_000, width: 80 });
      expect(text, 'rendered before the deadline').toBeDefined();
      expect(text).toMatch(BOX);
      expectAllFit(text!, 80);
    },
    2 * DEADLINE_MS,
  );
});

describe('a field list on a terminal', () => {
  const record: RecordView<Record<string, string>> = {
    kind: 'record',
    title: 'Score of rpt_e8699f830adc84b8',
    record: {
      score: '813 / 1000',
      reason:
        'The average daily balance covers 1.3 months of spending, and the salary arrives monthly.',
      blank: '',
    },
    fields: [
      { key: 'score', header: 'Score', value: (r) => r.score },
      { key: 'reason', header: 'Reason', value: (r) => r.reason },
      { key: 'blank', header: 'Left out when blank', value: (r) => r.blank },
    ],
    footer: ['Scores run from 300 to 1000; a band names the range rpt_e8699f830adc84b8 falls in.'],
  };

  it('wraps long values at word boundaries with a hanging indent', () => {
    expect(screen(terminal(record, 50))).toEqual([
      'Score of rpt_e8699f830adc84b8',
      'Score                813 / 1000',
      'Reason               The average daily balance',
      '                     covers 1.3 months of',
      '                     spending, and the salary',
      '                     arrives monthly.',
      'Scores run from 300 to 1000; a band names the',
      'range rpt_e8699f830adc84b8 falls in.',
    ]);
  });

  it('writes a label too long to leave its value room on a line of its own', () => {
    const long: RecordView<null> = {
      kind: 'record',
      record: null,
      fields: [
        { key: 'a', header: 'signals.loan_repayments_detected', value: () => 'yes' },
        { key: 'b', header: 'plan', value: () => 'growth' },
      ],
    };
    expect(screen(terminal(long, 40))).toEqual([
      'signals.loan_repayments_detected',
      '                    yes',
      'plan                growth',
    ]);
  });

  it('stays FIELD/VALUE lines in a pipe, whatever the width', () => {
    expect(pipe(record, 20)).toBe(pipe(record, 200));
    expect(pipe(record, 20).split('\n')[2]).toBe(`reason\t${record.record.reason}`);
  });
});

describe('titles, headings, footers and hints', () => {
  it('wrap between words, never inside a number or an id', () => {
    const view: SectionsView = {
      kind: 'sections',
      title: 'Underwriting of rpt_e8699f830adc84b8: 5,00,000.00 over 36 months at 12.5% a year',
      parts: [{ heading: 'Monthly summary of the statement period, oldest first', view: list() }],
      footer: [
        'As of 2026-11-14 · Nepal Rastra Bank · https://www.nrb.org.np/category/consumer-price-index/',
      ],
      hints: ['74 transactions in this reply: -o csv or -o ndjson writes them one per line.'],
    };
    const text = terminal(view, 40);
    const lines = screen(text);
    // The URL is wider than the terminal: it stands alone on its line, whole, for the terminal to
    // fold.
    for (const line of lines.filter((line) => !line.startsWith('https:')))
      expect(width(line), line).toBeLessThanOrEqual(40);
    expect(lines.slice(0, 4)).toEqual([
      'Underwriting of rpt_e8699f830adc84b8:',
      '5,00,000.00 over 36 months at 12.5% a',
      'year',
      'Monthly summary of the statement period,',
    ]);
    expect(lines.slice(-4)).toEqual([
      'As of 2026-11-14 · Nepal Rastra Bank ·',
      'https://www.nrb.org.np/category/consumer-price-index/',
      '74 transactions in this reply: -o csv or',
      '-o ndjson writes them one per line.',
    ]);
  });
});

describe('the generic view', () => {
  it('keeps ids, numbers, amounts and dates whole; long text is free text; short text neither', () => {
    const view = genericView({
      items: [
        {
          id: 'rpt_e8699f830adc84b8',
          amount: 125000,
          when: '2026-01-10',
          status: 'MATURE',
          name: 'Leapfrog Technology Pvt Ltd',
        },
        {
          id: 'rpt_5f037950f28b8944',
          amount: 2098.77,
          when: '2026-04-08',
          status: 'EARLY_DETECTION',
          name: 'NABIL Bank Interest',
        },
      ],
    });
    const table = view.parts[0]!.view as ListView<Record<string, string>>;
    expect(table.columns.map((c) => [c.key, c.keep === true, c.flex === true])).toEqual([
      ['id', true, false],
      ['amount', true, false],
      ['when', true, false],
      ['status', false, false],
      ['name', false, true],
    ]);
  });

  const samples = documentedNames();

  /**
   * The ids and numbers of a sample: what a terminal must show whole (a confidence as its
   * percentage: 0.95 is 95%).
   */
  function atoms(value: unknown, found: string[] = [], key = ''): string[] {
    if (typeof value === 'number')
      found.push(
        key === 'confidence' && value >= 0 && value <= 1
          ? `${Math.round(value * 10000) / 100}%`
          : String(value),
      );
    else if (typeof value === 'string' && /^[A-Za-z]+_[A-Za-z0-9_]*\d[A-Za-z0-9_]*$/.test(value))
      found.push(value);
    else if (Array.isArray(value)) for (const item of value) atoms(item, found, key);
    else if (isRecord(value))
      for (const [name, item] of Object.entries(value)) atoms(item, found, name);
    return found;
  }

  it.each(samples)(
    'shows the documented %s within 80 and 60 columns, its ids and numbers whole (with -o wide)',
    (name) => {
      const body = documented(name);
      for (const columns of [80, 60]) {
        const text = wide(genericView(printableDeep(body)), columns, colour);
        expectFits(text, columns);
        expectWhole(text, atoms(body));
      }
    },
  );

  it.each(samples)(
    'shows the documented %s within 80 and 60 columns as tables, the columns it leaves out named',
    (name) => {
      const body = documented(name);
      for (const columns of [80, 60]) {
        const text = terminal(genericView(printableDeep(body)), columns, colour);
        expectFits(text, columns);
        // Every table is boxed; what it leaves out, it names.
        const lines = screen(text);
        const boxes = lines.filter((line) => line.startsWith('┌')).length;
        const headings = (genericView(body).parts as { view: View }[]).filter(
          (part) => part.view.kind === 'list' && (part.view as ListView<unknown>).rows.length > 0,
        ).length;
        expect(boxes).toBe(headings);
      }
    },
  );

  it('shows a wide list of the documented transactions as a table at 60 columns, naming the columns left out; -o wide as cards at 60 and a table at 160', () => {
    const body = documented('report');
    const many = { transactions: Array.from({ length: 3 }, () => body.transactions[0]) };
    expect(wide(genericView(many), 160)).toMatch(BOX);
    const cards = wide(genericView(many), 60);
    expectFits(cards, 60);
    expect(cards).not.toMatch(BOX);
    expect(screen(cards).filter((line) => line === '')).toHaveLength(2);
    const narrow = terminal(genericView(many), 60);
    expectFits(narrow, 60);
    expect(narrow).toMatch(BOX);
    expect(screen(narrow).filter((line) => line.startsWith('│ '))).toHaveLength(4);
    expect(screen(narrow).join(' ')).toMatch(
      /Left out at this width: CATEGORY, MERCHANT, .+ \(-o wide shows every column\)\.$/,
    );
  });
});

describe('the streamed table', () => {
  interface Result {
    input: string;
    terminal: string;
    merchant: string;
  }
  const isTerminal = (value: string) => /^\d{16,}$/.test(value);
  const COLUMNS: StreamColumn<Result>[] = [
    { key: 'input', header: 'INPUT', display: (r) => r.input, flex: 'cut', keep: isTerminal },
    { key: 'terminal', header: 'TERMINAL', display: (r) => r.terminal, keep: true },
    { key: 'merchant', header: 'MERCHANT', display: (r) => r.merchant, flex: true },
  ];
  const ROWS: Result[] = [
    { input: '9756038350856888', terminal: '9756038350856888', merchant: 'Himalayan Interiors' },
    {
      input: 'Kanchenjunga Mountain Departmental Store, Butwal',
      terminal: '4479028991229775',
      merchant: 'Kanchenjunga Mountain Departmental Store',
    },
  ];

  async function stream(columns: number, ...batches: Result[][]): Promise<string> {
    return streamed(columns, {}, ...batches);
  }

  async function streamed(
    columns: number,
    layout: { wide?: boolean; headers?: boolean },
    ...batches: Result[][]
  ): Promise<string> {
    let out = '';
    const writer = new AlignedTableWriter(
      { write: async (text: string) => void (out += text) } as never,
      columns,
      plain,
      COLUMNS,
      'No results.',
      undefined,
      layout,
    );
    for (const batch of batches) await writer.write(batch);
    await writer.finish(true);
    return out;
  }

  it('keeps terminal numbers whole and cuts merchant names and a name given as input, a row a line', async () => {
    const text = await stream(60, ROWS);
    expectFits(text, 60);
    // One space between columns: two would cut more.
    expect(screen(text)).toEqual([
      'INPUT                 TERMINAL         MERCHANT',
      '9756038350856888      9756038350856888 Himalayan Interiors',
      'Kanchenjunga Mountai… 4479028991229775 Kanchenjunga Mountai…',
    ]);
  });

  it('-o wide: keeps terminal numbers whole, wraps merchant names and a name given as input; --no-headers leaves the header out', async () => {
    const text = await streamed(60, { wide: true, headers: false }, ROWS);
    expectFits(text, 60);
    // The two free-text columns give up room alike, the widest first.
    expect(screen(text)).toEqual([
      '9756038350856888      9756038350856888 Himalayan Interiors',
      'Kanchenjunga Mountain 4479028991229775 Kanchenjunga Mountain',
      'Departmental Store,                    Departmental Store',
      'Butwal',
    ]);
  });

  it('writes cards when even the narrowest columns are too wide', async () => {
    const text = await stream(40, ROWS, [ROWS[0]!]);
    expectFits(text, 40);
    expect(screen(text)).toEqual([
      'INPUT     9756038350856888',
      'TERMINAL  9756038350856888',
      'MERCHANT  Himalayan Interiors',
      '',
      'INPUT     Kanchenjunga Mountain',
      '          Departmental Store, Butwal',
      'TERMINAL  4479028991229775',
      'MERCHANT  Kanchenjunga Mountain',
      '          Departmental Store',
      '',
      'INPUT     9756038350856888',
      'TERMINAL  9756038350856888',
      'MERCHANT  Himalayan Interiors',
    ]);
  });

  it('writes a later row whose kept value is wider than its column as a card, never cut nor broken', async () => {
    const later = {
      input: '9207897817934353038',
      terminal: '9207897817934353038',
      merchant: 'Himalayan Interiors',
    };
    const text = await stream(60, [ROWS[0]!], [later, ROWS[0]!]);
    expect(text).not.toContain('…');
    expectFits(text, 60);
    expect(screen(text)).toEqual([
      'INPUT             TERMINAL          MERCHANT',
      '9756038350856888  9756038350856888  Himalayan Interiors',
      '',
      'INPUT     9207897817934353038',
      'TERMINAL  9207897817934353038',
      'MERCHANT  Himalayan Interiors',
      '',
      '9756038350856888  9756038350856888  Himalayan Interiors',
    ]);
  });
});
