// How text and tables fit a terminal, boxed or streamed alike: the one rule of who gives up room.
// A table's columns say how willing they are (`keep`, `flex`: view.ts); when a table is wider than
// the terminal its headers wrap first, then its free text (wrapped, or cut with an ellipsis), then
// its other text between words; what still does not fit is shown as one card per row instead.
// Widths count what a terminal shows: colour codes take no room, East Asian wide characters two.

/** How a column gives up room, from the least willing: see `fitOf`. */
export type Fit = 'keep' | 'words' | 'wrap' | 'cut';

/** The column settings that choose its Fit (view.ts Column, the streamed StreamColumn). */
export interface Fitting {
  /** Never narrowed, never cut: ids, amounts, names. Its header may still wrap between words. */
  keep?: boolean;
  /** Free text, the first to give up room: wrapped at word boundaries, or with 'cut' cut to one line with an ellipsis. */
  flex?: boolean | 'cut';
}

/**
 * keep: whole, on one line. words (the default): whole words, wrapped between them when room runs
 * short. wrap: free text wrapped, a word longer than the column broken. cut: one line, an ellipsis.
 */
export function fitOf(column: Fitting): Fit {
  if (column.keep) return 'keep';
  if (column.flex === 'cut') return 'cut';
  return column.flex ? 'wrap' : 'words';
}

/** The narrowest a wrapped column is made (unless its text is narrower). */
const MIN_WRAP_WIDTH = 10;
/** The narrowest a cut column is made: room for a few letters and the ellipsis. */
const MIN_CUT_WIDTH = 8;
/** A wrapped column is kept at least as wide as its longest word up to this: longer words are broken. */
const WHOLE_WORD_WIDTH = 24;

const ANSI = /\u001b\[[0-9;]*m/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Columns a code point takes on a terminal (as cli-table3 counts it, or more). */
function charWidth(codePoint: number): number {
  if (codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f)) return 0;
  if (codePoint >= 0x300 && codePoint <= 0x36f) return 0;
  return isWide(codePoint) ? 2 : 1;
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    cp === 0x2329 ||
    cp === 0x232a ||
    (cp >= 0x2e80 && cp <= 0x3247 && cp !== 0x303f) ||
    (cp >= 0x3250 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0xa4c6) ||
    (cp >= 0xa960 && cp <= 0xa97c) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe10 && cp <= 0xfe19) ||
    (cp >= 0xfe30 && cp <= 0xfe6b) ||
    (cp >= 0xff01 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1b000 && cp <= 0x1b001) ||
    (cp >= 0x1f200 && cp <= 0x1f251) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Columns one line of text takes (colour codes take none). */
export function lineWidth(line: string): number {
  let width = 0;
  for (const char of stripAnsi(line)) width += charWidth(char.codePointAt(0)!);
  return width;
}

/** The largest of the numbers, 0 for none (a spread of many rows would overflow the stack). */
function largest(values: Iterable<number>): number {
  let max = 0;
  for (const value of values) if (value > max) max = value;
  return max;
}

/** Columns the widest line of the text takes. */
export function visibleWidth(text: string): number {
  return largest(text.split('\n').map(lineWidth));
}

/**
 * A word never broken, even in a heading wider than the terminal: a number, an amount, a date or
 * an id (`rpt_e8699f830adc84b8`, `1,25,000.00`, `2026-05-22T10:00:00Z`, `9756038350856888`).
 */
export function isAtom(word: string): boolean {
  const bare = stripAnsi(word).replace(/[.,;:!?)\]"']+$/, '').replace(/^[("'[]+/, '');
  return bare.length > 0 && bare.length <= 40 && /\d/.test(bare) && !bare.includes('://') && /^[\p{L}\p{N}_.,:+\-%#/]+$/u.test(bare);
}

/** One code point or colour code of a line, with the columns it takes. */
interface Piece {
  text: string;
  width: number;
}

function pieces(line: string): Piece[] {
  const out: Piece[] = [];
  for (const match of line.matchAll(/\u001b\[[0-9;]*m|[\s\S]/gu)) {
    const text = match[0];
    out.push({ text, width: text.length > 1 && text.startsWith('\u001b') ? 0 : charWidth(text.codePointAt(0)!) });
  }
  return out;
}

const join = (parts: readonly Piece[]) => parts.map((p) => p.text).join('');
const widthOf = (parts: readonly Piece[]) => parts.reduce((sum, p) => sum + p.width, 0);
const isSpace = (p: Piece) => p.text === ' ' || p.text === '\t';

/** Where a word too long for a line breaks best: after a separator in its second half, else at the width. */
function breakAt(word: readonly Piece[], from: number, width: number): number {
  let used = 0;
  let end = from;
  while (end < word.length && used + word[end]!.width <= width) used += word[end++]!.width;
  if (end === from) return from + 1;
  // A path breaks best after a slash; other text after any separator.
  const half = from + (end - from) / 2;
  for (const separator of [/\//, /[-_.,?&=:;]/]) {
    for (let i = end; i > half; i--) if (separator.test(word[i - 1]!.text)) return i;
  }
  return end;
}

/** How a word longer than the line is treated: broken (table cells, values), or kept whole unless `isAtom` says it may not be (prose). */
export type LongWords = 'break' | 'prose';

/**
 * Text wrapped at word boundaries into lines of at most `width` columns; its own line breaks are
 * kept. A word longer than a line is broken (after a `/`, `-`, `_` … where one falls in its second
 * half), except in prose a number or an id, which stays whole. Colour carries over line breaks.
 */
export function wrapText(text: string, width: number, long: LongWords = 'break'): string[] {
  const lines: Piece[][] = [];
  for (const source of text.split('\n')) {
    if (lineWidth(source) <= width) {
      lines.push(pieces(source));
      continue;
    }
    const words: Piece[][] = [];
    let word: Piece[] = [];
    for (const piece of pieces(source)) {
      if (isSpace(piece)) {
        if (word.length) words.push(word);
        word = [];
      } else {
        word.push(piece);
      }
    }
    if (word.length) words.push(word);
    let line: Piece[] = [];
    let used = 0;
    const flush = () => {
      lines.push(line);
      line = [];
      used = 0;
    };
    for (let w of words) {
      let size = widthOf(w);
      if (used > 0 && used + 1 + size <= width) {
        line.push({ text: ' ', width: 1 }, ...w);
        used += 1 + size;
        continue;
      }
      if (used > 0) flush();
      if (size > width && !(long === 'prose' && isAtom(join(w)))) {
        let from = 0;
        while (size > width) {
          const at = breakAt(w, from, width);
          const part = w.slice(from, at);
          lines.push(part);
          size -= widthOf(part);
          from = at;
        }
        w = w.slice(from);
      }
      line = w;
      used = size;
    }
    if (line.length || words.length === 0) flush();
  }
  return carryColour(lines);
}

/** Lines of one styled text, each closing its colour and the next opening it again. */
function carryColour(lines: Piece[][]): string[] {
  const codes: string[] = [];
  return lines.map((line, i) => {
    const open = codes.join('');
    for (const piece of line) {
      if (piece.text === '\u001b[0m') codes.length = 0;
      else if (piece.width === 0 && piece.text.startsWith('\u001b')) codes.push(piece.text);
    }
    const close = codes.length > 0 && i < lines.length - 1 ? '\u001b[0m' : '';
    return open + join(line) + close;
  });
}

/** The text cut to `width` columns, its last one an ellipsis when cut (colour closed after it). */
export function cutToWidth(value: string, width: number): string {
  if (lineWidth(value) <= width) return value;
  const kept: Piece[] = [];
  let used = 0;
  for (const piece of pieces(value)) {
    if (used + piece.width > Math.max(0, width - 1)) break;
    kept.push(piece);
    used += piece.width;
  }
  const coloured = kept.some((p) => p.width === 0 && p.text.startsWith('\u001b'));
  return join(kept) + '…' + (coloured ? '\u001b[0m' : '');
}

/** Pads a styled line with spaces to `width` columns, on the right or (right-aligned) on the left. */
export function padTo(line: string, width: number, align: 'left' | 'right' = 'left'): string {
  const room = ' '.repeat(Math.max(0, width - lineWidth(line)));
  return align === 'right' ? room + line : line + room;
}

/** A column of a table to fit: its header and its cells as shown (colour included). */
export interface FitColumn {
  fit: Fit;
  header: string;
  cells: readonly string[];
  /** It is never made narrower than this: the widest of the values it must keep whole. */
  minWidth?: number;
}

/** Columns the longest word of the text takes, of the words no wider than `cap`. */
function longestWord(text: string, cap = Infinity): number {
  return largest(stripAnsi(text).split(/\s+/).map(lineWidth).filter((width) => width <= cap));
}

/**
 * The widths (of the text, no padding) that fit the columns in `room`, or undefined when even the
 * narrowest the rule allows is too wide: the table is then better shown as cards. Room is given up
 * in this order: headers wrap between their words (the one that frees most first); free-text
 * columns narrow to their floor, the widest first (a wrapped one keeps its words of up to 24
 * columns whole); other text wraps between words, the widest first. Kept columns never narrow.
 */
export function fitWidths(columns: readonly FitColumn[], room: number): number[] | undefined {
  const cellWidths = columns.map((c) => largest(c.cells.map(visibleWidth)));
  const widths = columns.map((c, i) => Math.max(visibleWidth(c.header), cellWidths[i]!));
  let excess = widths.reduce((a, b) => a + b, 0) - room;
  if (excess <= 0) return widths;
  // Each column's floors, one a step: [headers wrapped, free text narrowed, other text wrapped].
  const floors = columns.map((c, i): [number, number, number] => {
    const cells = cellWidths[i]!;
    const header = longestWord(c.header);
    const at = (n: number) => Math.max(header, c.minWidth ?? 0, n);
    const whole = at(cells);
    switch (c.fit) {
      case 'wrap': {
        const floor = at(Math.min(cells, Math.max(MIN_WRAP_WIDTH, largest(c.cells.map((cell) => longestWord(cell, WHOLE_WORD_WIDTH))))));
        return [whole, floor, floor];
      }
      case 'cut': {
        const floor = at(Math.min(cells, MIN_CUT_WIDTH));
        return [whole, floor, floor];
      }
      case 'words':
        return [whole, whole, at(largest(c.cells.map((cell) => longestWord(cell))))];
      case 'keep':
        return [whole, whole, whole];
    }
  });
  // Headers first: a header wrapped onto one more line gives up all the room that line frees.
  while (excess > 0) {
    let best = -1;
    let bestWidth = 0;
    widths.forEach((width, i) => {
      if (width <= floors[i]![0]) return;
      const next = Math.max(floors[i]![0], visibleWidth(wrapText(columns[i]!.header, width - 1).join('\n')));
      if (best < 0 || width - next > widths[best]! - bestWidth) [best, bestWidth] = [i, next];
    });
    if (best < 0) break;
    excess -= widths[best]! - bestWidth;
    widths[best] = bestWidth;
  }
  for (let step = 1; step < 3 && excess > 0; step++) {
    while (excess > 0) {
      let widest = -1;
      widths.forEach((width, i) => {
        if (width > floors[i]![step]! && (widest < 0 || width > widths[widest]!)) widest = i;
      });
      if (widest < 0) break;
      widths[widest]!--;
      excess--;
    }
  }
  return excess > 0 ? undefined : widths;
}

/** The lines of one cell at `width` columns, as its column's Fit says. */
export function cellLines(text: string, width: number, fit: Fit): string[] {
  if (visibleWidth(text) <= width) return text.split('\n');
  switch (fit) {
    case 'cut':
      return text.split('\n').map((line) => cutToWidth(line, width));
    case 'keep':
      return text.split('\n');
    default:
      return wrapText(text, width);
  }
}

/** The narrowest a value is made beside its label; a label that leaves less goes on a line of its own. */
const MIN_VALUE_WIDTH = 20;

/**
 * Labelled values for people, `LABEL  value`, the labels padded to one width and each value wrapped
 * at word boundaries with a hanging indent. A label too long to leave a value room is written on a
 * line of its own (wrapped, if wider than the terminal), its value under it at the indent.
 */
export function labelledLines(
  pairs: readonly (readonly [string, string])[],
  width: number,
  paintLabel: (text: string) => string,
  widest = largest(pairs.map(([label]) => lineWidth(label))),
): string {
  const labelWidth = Math.min(widest, Math.max(1, width - 2 - MIN_VALUE_WIDTH));
  const room = Math.max(1, width - labelWidth - 2);
  const indent = ' '.repeat(labelWidth + 2);
  let out = '';
  for (const [label, value] of pairs) {
    const lines = wrapText(value, room);
    if (lineWidth(label) > labelWidth) {
      out += wrapText(label, width).map((line) => paintLabel(line) + '\n').join('') + lines.map((line) => indent + line).join('\n') + '\n';
    }
    else {
      out += paintLabel(padTo(label, labelWidth)) + '  ' + lines.join('\n' + indent) + '\n';
    }
  }
  return out;
}

/**
 * One row of a table too wide for the terminal, as a card: `HEADER  value` lines (labelledLines,
 * the headers painted), the values that are not `shown` (by default those that take no room) left
 * out; a row with none shown keeps its first column.
 */
export function card(
  pairs: readonly (readonly [string, string])[],
  width: number,
  paintHeader: (text: string) => string,
  shown: (value: string) => boolean = (value) => visibleWidth(value) > 0,
): string {
  const filled = pairs.filter(([, value]) => shown(value));
  return labelledLines(filled.length ? filled : pairs.slice(0, 1), width, paintHeader);
}
