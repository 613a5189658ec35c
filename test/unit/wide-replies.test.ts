// Replies whose rows each bring a field of their own (issue 23 item 8), the pure parts: a table
// shows a bounded number of columns and says how many it left out; CSV past 1,000 columns is
// refused. No test here is timed: sizes show that the work is linear.
import { describe, expect, it } from 'vitest';
import { UnexpectedReplyError } from '../../src/core/errors.js';
import { genericView, leftOutNote, MAX_EXTRA_COLUMNS, table, withExtraColumns } from '../../src/core/output/generic.js';
import { createPaint } from '../../src/core/output/paint.js';
import { csvText, MAX_CSV_COLUMNS } from '../../src/core/output/records.js';
import { renderTable, type RenderTarget } from '../../src/core/output/render.js';
import { notesOf, type ListView } from '../../src/core/output/view.js';

/** `count` rows with two fields every row has and one that only this row has. */
const wide = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `r${i}`, amount: i, [`only_${i}`]: 'x' }));

const pipe = async (): Promise<RenderTarget> => ({ terminal: false, width: 80, paint: await createPaint(false) });

describe('a table of rows that each bring a field of their own', () => {
  it(`shows at most ${MAX_EXTRA_COLUMNS} columns, the fields most rows have first, and says how many it left out`, () => {
    const view = table(wide(500));
    expect(view.columns.map((c) => c.key)).toEqual(['id', 'amount', ...Array.from({ length: MAX_EXTRA_COLUMNS - 2 }, (_, i) => `only_${i}`)]);
    expect(view.notes).toEqual([leftOutNote(502 - MAX_EXTRA_COLUMNS)]);
    expect(leftOutNote(478)).toBe('478 more columns left out, of the fields fewest rows have: --json or -o ndjson shows every field.');
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
    const designed: ListView<(typeof rows)[number]> = { kind: 'list', rows, columns: [{ key: 'id', header: 'ID', value: (r) => r.id }] };
    const view = withExtraColumns(designed, (r) => r.rest);
    expect(view.columns).toHaveLength(1 + MAX_EXTRA_COLUMNS);
    expect(view.columns[1]!.key).toBe('amount');
    expect(notesOf({ kind: 'sections', parts: [{ view }] })).toEqual([leftOutNote(301 - MAX_EXTRA_COLUMNS)]);
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

describe('CSV', () => {
  it(`refuses records with more than ${MAX_CSV_COLUMNS} fields between them (exit 10)`, () => {
    expect(() => csvText(wide(MAX_CSV_COLUMNS - 1))).toThrow(UnexpectedReplyError);
    expect(() => csvText(wide(MAX_CSV_COLUMNS))).toThrow(
      'the records have more than 1,000 different fields, the most columns a CSV file is given; -o ndjson writes each record whole',
    );
  });

  it(`writes ${MAX_CSV_COLUMNS} columns`, () => {
    const header = csvText(wide(MAX_CSV_COLUMNS - 2)).split('\r\n')[0]!;
    expect(header.split(',')).toHaveLength(MAX_CSV_COLUMNS);
  });
});
