// Replies whose rows each bring a field of their own, the pure parts: a table
// shows a bounded number of columns and says how many it left out; CSV past 1,000 columns is
// refused before its first piece; tables, CSV and NDJSON are made a piece at a time, each piece
// only when asked for, and the writer gives way to a signal between pieces. No test here is timed:
// sizes and counts show that the work is linear, and a loop that never gave way would hang.
import { readFile } from 'node:fs';
import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { InterruptedError, UnexpectedReplyError } from '../../src/core/errors.js';
import { drawBox } from '../../src/core/output/box.js';
import {
  genericView,
  leftOutNote,
  MAX_EXTRA_COLUMNS,
  table,
  withExtraColumns,
} from '../../src/core/output/generic.js';
import { createPaint } from '../../src/core/output/paint.js';
import { csvPieces, MAX_CSV_COLUMNS, ndjsonPieces } from '../../src/core/output/records.js';
import {
  renderTable,
  type RenderTarget,
  ROWS_A_PIECE,
  tablePieces,
} from '../../src/core/output/render.js';
import { type ListView, notesOf } from '../../src/core/output/view.js';
import { giveWay, writePieces } from '../../src/core/stream/paced-write.js';
import { OutputSink } from '../../src/core/stream/sink.js';

/** `count` rows with two fields every row has and one that only this row has. */
const wide = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `r${i}`, amount: i, [`only_${i}`]: 'x' }));

const pipe = async (): Promise<RenderTarget> => ({
  terminal: false,
  width: 80,
  paint: await createPaint(false),
});

describe('a table of rows that each bring a field of their own', () => {
  it(`shows at most ${MAX_EXTRA_COLUMNS} columns, the fields most rows have first, and says how many it left out`, () => {
    const view = table(wide(500));
    expect(view.columns.map((c) => c.key)).toEqual([
      'id',
      'amount',
      ...Array.from({ length: MAX_EXTRA_COLUMNS - 2 }, (_, i) => `only_${i}`),
    ]);
    expect(view.notes).toEqual([leftOutNote(502 - MAX_EXTRA_COLUMNS)]);
    expect(leftOutNote(478)).toBe(
      '478 more columns left out, of the fields fewest rows have: --json or -o ndjson shows every field.',
    );
  });

  it('keeps a field that appears late but in most rows', () => {
    const rows = [...wide(100), ...Array.from({ length: 150 }, (_, i) => ({ late: i }))];
    expect(table(rows).columns.map((c) => c.key)).toContain('late');
  });

  it('shows every column, and no note, within the bound', () => {
    const view = table([{ a: 1, b: 'x' }, { c: true }]);
    expect(view.columns.map((c) => c.key)).toEqual(['a', 'b', 'c']);
    expect(view.notes).toBeUndefined();
  });

  it(`a command's designed table gets at most ${MAX_EXTRA_COLUMNS} more columns, and the note`, () => {
    const rows = wide(300).map(({ id, ...rest }) => ({ id, rest }));
    const designed: ListView<(typeof rows)[number]> = {
      kind: 'list',
      rows,
      columns: [{ key: 'id', header: 'ID', value: (r) => r.id }],
    };
    const view = withExtraColumns(designed, (r) => r.rest);
    expect(view.columns).toHaveLength(1 + MAX_EXTRA_COLUMNS);
    expect(view.columns[1]!.key).toBe('amount');
    expect(notesOf({ kind: 'sections', parts: [{ view }] })).toEqual([
      leftOutNote(301 - MAX_EXTRA_COLUMNS),
    ]);
  });

  it('in a pipe, its text grows with the rows, not with rows × rows', async () => {
    const rows = wide(1000);
    const text = renderTable(genericView(rows), await pipe());
    const lines = text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(1 + rows.length);
    for (const line of lines) expect(line.split('\t')).toHaveLength(MAX_EXTRA_COLUMNS);
    expect(text.length).toBeLessThan(JSON.stringify(rows).length);
  });
});

describe('tables made a piece at a time', () => {
  it('makes each piece only when it is asked for: two pieces of a table of 100,000 rows read two pieces of rows', async () => {
    let read = 0;
    const rows = Array.from({ length: 100_000 }, (_, i) => i);
    const view: ListView<number> = {
      kind: 'list',
      rows,
      columns: [{ key: 'n', header: 'N', value: (n) => (read++, n) }],
    };
    const pieces = tablePieces(view, await pipe());
    expect(pieces.next().value).toBe('N\n');
    expect(pieces.next().value).toBe(rows.slice(0, ROWS_A_PIECE).join('\n') + '\n');
    expect(read).toBe(ROWS_A_PIECE);
  });

  it('draws a boxed table in slices that join into the box drawn whole', async () => {
    const rows = Array.from({ length: 2 * ROWS_A_PIECE + 50 }, (_, i) => ({
      id: `txn_${i}`,
      amount: i * 10,
      note: i % 7 === 0 ? 'seventh' : '',
    }));
    const view: ListView<(typeof rows)[number]> = {
      kind: 'list',
      rows,
      columns: [
        { key: 'id', header: 'ID', value: (r) => r.id },
        { key: 'amount', header: 'AMOUNT', value: (r) => r.amount, align: 'right' },
        { key: 'note', header: 'NOTE', value: (r) => r.note },
      ],
    };
    const target: RenderTarget = { terminal: true, width: 80, paint: await createPaint(false) };
    const widths = [
      Math.max(2, ...rows.map((r) => r.id.length)),
      Math.max(6, ...rows.map((r) => String(r.amount).length)),
      7,
    ];
    const columns = widths.map((width, i) => ({
      width,
      align: i === 1 ? ('right' as const) : ('left' as const),
    }));
    const whole = [
      ...drawBox(
        columns,
        [['ID'], ['AMOUNT'], ['NOTE']],
        rows.map((r) => [[r.id], [String(r.amount)], r.note ? [r.note] : []]),
      ),
    ].join('');
    expect([...tablePieces(view, target)].length).toBeGreaterThan(3);
    expect(renderTable(view, target)).toBe(whole);
  });
});

describe('CSV and NDJSON made a piece at a time', () => {
  it(`refuses records with more than ${MAX_CSV_COLUMNS} fields between them (exit 10) before its first piece`, () => {
    const pieces = csvPieces(wide(MAX_CSV_COLUMNS - 1));
    expect(() => pieces.next()).toThrow(UnexpectedReplyError);
    expect(() => csvPieces(wide(MAX_CSV_COLUMNS)).next()).toThrow(
      'the records have more than 1,000 different fields, the most columns a CSV file is given; -o ndjson writes each record whole',
    );
  });

  it(`writes ${MAX_CSV_COLUMNS} columns`, () => {
    const header = csvPieces(wide(MAX_CSV_COLUMNS - 2)).next().value as string;
    expect(header.split(',')).toHaveLength(MAX_CSV_COLUMNS);
  });

  it('NDJSON: one line a record, as received, a piece of lines at a time', () => {
    const rows = wide(2 * ROWS_A_PIECE + 1);
    const pieces = [...ndjsonPieces(rows)];
    expect(pieces).toHaveLength(3);
    expect(pieces.join('')).toBe(rows.map((r) => JSON.stringify(r) + '\n').join(''));
  });
});

describe('writing pieces', () => {
  const collector = () => {
    const stream = new PassThrough();
    let text = '';
    stream.setEncoding('utf8').on('data', (d: string) => (text += d));
    return { sink: new OutputSink(stream), text: () => text };
  };

  it('writes them in order', async () => {
    const out = collector();
    await writePieces(['a', '', 'b\n', 'c'], out.sink, new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toBe('ab\nc');
  });

  it('gives way to waiting events, so that Ctrl-C stops even an output that never ends', async () => {
    const stop = new AbortController();
    // A timer only runs when the loop gives way: a writer that never did would never end.
    setTimeout(() => stop.abort(), 0);
    const endless = (function* () {
      for (;;) yield 'x'.repeat(100);
    })();
    await expect(writePieces(endless, collector().sink, stop.signal)).rejects.toThrow(
      InterruptedError,
    );
  });

  it('giving way between two steps lets in a signal that came during a step run from an I/O callback', async () => {
    let heard = false;
    const hear = () => (heard = true);
    process.on('SIGUSR2', hear);
    try {
      // A reply is parsed in the callback of its last read: the loop's I/O phase, which a single
      // turn back to the loop would not see again before the next step.
      const heardThen = await new Promise<boolean>((resolve, reject) => {
        readFile(new URL(import.meta.url), () => {
          process.kill(process.pid, 'SIGUSR2');
          const busyUntil = performance.now() + 20;
          while (performance.now() < busyUntil);
          giveWay(new AbortController().signal).then(() => resolve(heard), reject);
        });
      });
      expect(heardThen).toBe(true);
    } finally {
      process.off('SIGUSR2', hear);
    }
  });
});
