// A table in a box for a terminal, drawn from cells already fitted to their columns (fit.ts): one
// pass over its lines. Not cli-table3: it compares every cell with every row above it, quadratic
// (45 s for 2,000 rows of wrapped text), and measures each cell again.
import { padTo } from './fit.js';

export interface BoxColumn {
  /** Columns of text, the padding of one on either side not included. */
  width: number;
  align: 'left' | 'right';
}

/** One row: each cell as its lines, none wider than its column. */
export type BoxRow = readonly (readonly string[])[];

/**
 * The header row (none for --no-headers), a rule under it, then the rows with no rule between
 * them (a compact table); a row is as tall as its tallest cell, the others blank below their text.
 * Drawn a piece of `rowsAPiece` rows at a time, each when its writer asks for it.
 */
export function* drawBox(
  columns: readonly BoxColumn[],
  header: BoxRow | undefined,
  rows: Iterable<BoxRow>,
  rowsAPiece = Infinity,
): Generator<string> {
  const rule = (left: string, middle: string, right: string) =>
    left + columns.map((c) => '─'.repeat(c.width + 2)).join(middle) + right + '\n';
  yield rule('┌', '┬', '┐') + (header ? rowLines(columns, header) + rule('├', '┼', '┤') : '');
  let piece = '';
  let count = 0;
  for (const row of rows) {
    piece += rowLines(columns, row);
    if (++count < rowsAPiece) continue;
    yield piece;
    piece = '';
    count = 0;
  }
  yield piece + rule('└', '┴', '┘');
}

function rowLines(columns: readonly BoxColumn[], row: BoxRow): string {
  let height = 0;
  for (const cell of row) height = Math.max(height, cell.length);
  let out = '';
  for (let line = 0; line < height; line++) {
    out += '│';
    columns.forEach((c, i) => (out += ' ' + padTo(row[i]?.[line] ?? '', c.width, c.align) + ' │'));
    out += '\n';
  }
  return out;
}
