// How text and tables fit a terminal, boxed or streamed alike: the one rule of who gives up room. A
// table's columns say how willing they are (`keep`, `flex`: view.ts); when a table is wider than
// the terminal its headers wrap first, then its free text (wrapped, or cut with an ellipsis), then
// its other text between words; what still does not fit is shown as one card per row instead. A
// value a person copies is never split across lines (docs/reference/output.md, "Tables"): a value
// its column declares whole (`keep`), and in any text a word that looks like a URL, an id, a key or
// token, a date or time, or an enumeration name (`staysWhole`). A table keeps such words whole or
// becomes cards; a field list or card gives such a value its own line, unindented, when it does not
// fit beside its label; prose starts a new line for it. A word wider than the whole terminal stands
// alone on its line, for the terminal to fold: svc never breaks it. Widths count what a terminal
// shows: colour codes take no room, the rest as width.ts counts it. Each text is measured once (its
// widest line, its longest words); a table's column widths are decided from those measurements
// alone, so fitting takes time in proportion to the cells.

import { charWidth } from './width.js';

/** How a column gives up room, from the least willing: see `fitOf`. */
export type Fit = 'keep' | 'words' | 'wrap' | 'cut';

/** The column settings that choose its Fit (view.ts Column, the streamed StreamColumn). */
export interface Fitting {
  /**
   * Whole: never narrowed, cut nor wrapped, in a table, a card or a field list: what a person
   * copies (URLs, ids, keys, tokens, dates and times, enumeration names), amounts, names. Its
   * header may still wrap between words.
   */
  keep?: boolean;
  /**
   * Free text, the first to give up room: wrapped at word boundaries, or with 'cut' cut to one line
   * with an ellipsis.
   */
  flex?: boolean | 'cut';
}

/**
 * keep: whole, on one line. words (the default): whole words, wrapped between them when room runs
 * short. wrap: free text wrapped, a word longer than the column broken unless it stays whole
 * (`staysWhole`). cut: one line, an ellipsis.
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
/**
 * The narrowest terminal on which a list is a table whatever it holds, giving up columns rather
 * than become cards (docs/reference/output.md, "Tables"): narrower, one card a row may stand for
 * it.
 */
export const CARDS_BELOW = 60;
const ANSI = /\u001b\[[0-9;]*m/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Length of the colour code (ESC [ digits and semicolons m) starting at `i`, 0 when none does. */
function colourCodeAt(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x1b || text.charCodeAt(i + 1) !== 0x5b) return 0;
  let end = i + 2;
  for (
    let c = text.charCodeAt(end);
    (c >= 0x30 && c <= 0x39) || c === 0x3b;
    c = text.charCodeAt(++end)
  );
  return text.charCodeAt(end) === 0x6d ? end + 1 - i : 0;
}

const LINE_BREAK = 0x0a;
/** Wrapping parts words at spaces and tabs only (a no-break space glues a date to its time). */
const isWordBreak = (codePoint: number) => codePoint === 0x20 || codePoint === 0x09;

/**
 * A space no wrapping breaks at: it glues a date to its time, or the words of a value declared
 * whole, into one word. What fitting returns shows it as a space (a copied value has no U+00A0).
 */
export const GLUE = '\u00a0';

/** The text as shown: glue made a space again. */
export function unglue(text: string): string {
  return text.includes(GLUE) ? text.replaceAll(GLUE, ' ') : text;
}

/** The text made one word, its spaces glued: a date with its time, a command to copy. */
export function glueWhole(text: string): string {
  return text.replace(/[ \t]/g, GLUE);
}

// A date with its time and zone as free text writes them: `2026-11-27 09:12 UTC`, `2026-11-27
// 09:12:00 +05:45`.
const DATE_TIME =
  /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: ?(?:UTC|GMT|Z|[+-]\d{2}:?\d{2}))?/g;

/** The text with each date glued to its time and zone: one word that no wrapping parts. */
export function glueDateTimes(text: string): string {
  return mayHoldDateTime(text) ? text.replace(DATE_TIME, (dateTime) => glueWhole(dateTime)) : text;
}

/**
 * Whether a colon sits where a date's time has one (`2026-11-27 09:`): looked for colon by colon,
 * as the pattern itself would be tried at every character of every cell.
 */
function mayHoldDateTime(text: string): boolean {
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) {
    if (at >= 13 && text.charCodeAt(at - 9) === 0x2d && text.charCodeAt(at - 6) === 0x2d)
      return true;
  }
  return false;
}

// What `staysWhole` recognises, once wrapping punctuation is taken off a word. Each is tested in
// time linear in the word (no pattern that backtracks), as words may be long. Those with Unicode
// classes are made at their first use: making one reads its classes (~0.2 ms each), at the start
// of every command, while most commands never fit a text to a terminal.
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+$/i;
const words = (): { identifier: RegExp; letterOrDigit: RegExp; value: RegExp } =>
  (wordPatterns ??= {
    /**
     * A key, token, id or enumeration name: letters and digits joined by underscores
     * (`svc_sk_test_…`, `error_unsupported_document`), a masked one too.
     */
    identifier: /^[\p{L}\p{N}_.:\-\u2026*]+$/u,
    letterOrDigit: /[\p{L}\p{N}]/u,
    /**
     * A value with a digit in it: an id, an amount, a date or time, a hash, a token, a path or a
     * query (`rpt_e86`, `1,25,000.00`, `2026-05-22T10:00:00Z`).
     */
    value: /^[\p{L}\p{N}_.,:;+\-%#/=~@&?*$!\u2026]+$/u,
  });
let wordPatterns: ReturnType<typeof words> | undefined;
/**
 * What may open or close a value in prose and is no part of it: `(rpt_1)`, `"cns_2".`, ``
 * `svc_sk_…` ``.
 */
const OPENING = new Set('("\'[`<{');
const CLOSING = new Set('.,;:!?)]"\'`>}');

/**
 * The word without the punctuation around it (a loop: a pattern anchored at the end would be tried
 * from every start).
 */
function bareWord(word: string): string {
  let start = 0;
  let end = word.length;
  while (end > start && CLOSING.has(word[end - 1]!)) end--;
  while (start < end && OPENING.has(word[start]!)) start++;
  return word.slice(start, end);
}

/**
 * Whether a word is one a person copies, which no wrapping may break (docs/reference/output.md,
 * "Tables"): a URL, an id, a key or token, an amount, a date or time (a date glued to its time
 * counts as one word), an enumeration name (`error_unsupported_document`). Plain words, however
 * long, may be broken; so may compact JSON.
 */
export function staysWhole(word: string): boolean {
  if (word.includes(GLUE)) return true;
  const bare = bareWord(stripAnsi(word));
  if (bare === '') return false;
  if (URL_LIKE.test(bare)) return true;
  if (bare.includes('_') && words().letterOrDigit.test(bare) && words().identifier.test(bare))
    return true;
  return /\d/.test(bare) && words().value.test(bare);
}

/** Columns one line of text takes (colour codes take none). */
export function lineWidth(line: string): number {
  let width = 0;
  for (let i = 0; i < line.length;) {
    const code = colourCodeAt(line, i);
    if (code > 0) {
      i += code;
      continue;
    }
    const codePoint = line.codePointAt(i)!;
    i += codePoint > 0xffff ? 2 : 1;
    width += charWidth(codePoint);
  }
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
  return measureText(text).width;
}

/**
 * A word of free text up to this wide is kept whole when a wrapped column narrows; a longer one is
 * broken unless it stays whole (a wrapped column's floor: see fitWidths).
 */
const WHOLE_WORD_WIDTH = 24;

/** What fitting needs to know of a text, found in one pass over it. */
export interface TextMeasure {
  /** Columns its widest line takes. */
  width: number;
  /** Columns its longest word takes: wrapping between words never breaks it. */
  longestWord: number;
  /**
   * Columns its longest word that a wrapped column keeps whole: one of at most WHOLE_WORD_WIDTH, or
   * one that `staysWhole`.
   */
  longestKeptWord: number;
}

/** The widths of a text's widest line and longest words, colour codes taking none. */
export function measureText(text: string): TextMeasure {
  let width = 0;
  let longestWord = 0;
  let longestKeptWord = 0;
  let line = 0;
  let word = 0;
  let wordStart = 0;
  const endWord = (end: number) => {
    if (word > longestWord) longestWord = word;
    // Only a long word is looked at closer: a short one is kept whole anyway.
    if (
      word > longestKeptWord &&
      (word <= WHOLE_WORD_WIDTH || staysWhole(text.slice(wordStart, end)))
    )
      longestKeptWord = word;
    word = 0;
  };
  for (let i = 0; i < text.length;) {
    const code = colourCodeAt(text, i);
    if (code > 0) {
      i += code;
      continue;
    }
    const codePoint = text.codePointAt(i)!;
    const at = i;
    i += codePoint > 0xffff ? 2 : 1;
    if (codePoint === LINE_BREAK) {
      endWord(at);
      if (line > width) width = line;
      line = 0;
      continue;
    }
    const columns = charWidth(codePoint);
    line += columns;
    if (isWordBreak(codePoint)) endWord(at);
    else {
      if (word === 0) wordStart = at;
      word += columns;
    }
  }
  endWord(text.length);
  return { width: Math.max(width, line), longestWord, longestKeptWord };
}

/** One code point or colour code of a line, with the columns it takes. */
interface Piece {
  text: string;
  width: number;
}

function pieces(line: string): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < line.length;) {
    const code = colourCodeAt(line, i);
    if (code > 0) {
      out.push({ text: line.slice(i, i + code), width: 0 });
      i += code;
      continue;
    }
    const codePoint = line.codePointAt(i)!;
    const size = codePoint > 0xffff ? 2 : 1;
    out.push({ text: line.slice(i, i + size), width: charWidth(codePoint) });
    i += size;
  }
  return out;
}

const join = (parts: readonly Piece[]) => parts.map((p) => p.text).join('');
const widthOf = (parts: readonly Piece[]) => parts.reduce((sum, p) => sum + p.width, 0);

/**
 * Where a word too long for a line breaks best: after a separator in its second half, else at the
 * width.
 */
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

/**
 * Text wrapped at word boundaries into lines of at most `width` columns; its own line breaks are
 * kept. A word that stays whole (`staysWhole`: a URL, an id, a date glued to its time …) is never
 * broken: wider than the line, it stands alone on one. Another word longer than a line is broken
 * (after a `/`, `-`, `_` … where one falls in its second half). Colour carries over line breaks;
 * glue is shown as spaces.
 */
export function wrapText(text: string, width: number): string[] {
  return wrapMeasured(text, width).lines;
}

/** wrapText's lines, and whether one is wider than `width` (a word that stays whole is). */
export function wrapMeasured(text: string, width: number): { lines: string[]; tooWide: boolean } {
  const lines: string[] = [];
  let tooWide = false;
  for (const source of glueDateTimes(text).split('\n'))
    tooWide = wrapLine(source, width, lines) || tooWide;
  return { lines: (text.includes('\u001b') ? carryColour(lines) : lines).map(unglue), tooWide };
}

/**
 * One line of text wrapped onto `lines`, read word by word where it is; only a word that must be
 * broken is taken apart. True when a word that stays whole was wider than the line.
 */
function wrapLine(source: string, width: number, lines: string[]): boolean {
  if (lineWidth(source) <= width) {
    lines.push(source);
    return false;
  }
  let tooWide = false;
  let line = '';
  let started = false;
  let used = 0;
  let anyWord = false;
  const flush = () => {
    lines.push(line);
    line = '';
    started = false;
    used = 0;
  };
  const place = (word: string, size: number) => {
    anyWord = true;
    if (used > 0 && used + 1 + size <= width) {
      line += ' ' + word;
      used += 1 + size;
      return;
    }
    if (used > 0) flush();
    started = true;
    if (size > width && staysWhole(word)) tooWide = true;
    else if (size > width) {
      const parts = pieces(word);
      let from = 0;
      while (size > width) {
        const at = breakAt(parts, from, width);
        const part = parts.slice(from, at);
        lines.push(join(part));
        size -= widthOf(part);
        from = at;
      }
      word = join(parts.slice(from));
      started = from < parts.length;
    }
    line = word;
    used = size;
  };
  // Words are what lies between spaces and tabs, colour codes included.
  let start = -1;
  let size = 0;
  for (let i = 0; i < source.length;) {
    const code = colourCodeAt(source, i);
    if (code > 0) {
      if (start < 0) start = i;
      i += code;
      continue;
    }
    const codePoint = source.codePointAt(i)!;
    if (isWordBreak(codePoint)) {
      if (start >= 0) place(source.slice(start, i), size);
      start = -1;
      size = 0;
    } else {
      if (start < 0) start = i;
      size += charWidth(codePoint);
    }
    i += codePoint > 0xffff ? 2 : 1;
  }
  if (start >= 0) place(source.slice(start), size);
  if (started || !anyWord) flush();
  return tooWide;
}

/** Lines of one styled text, each closing its colour and the next opening it again. */
function carryColour(lines: string[]): string[] {
  const codes: string[] = [];
  return lines.map((line, i) => {
    const open = codes.join('');
    for (let at = line.indexOf('\u001b'); at >= 0; at = line.indexOf('\u001b', at + 1)) {
      const code = line.slice(at, at + colourCodeAt(line, at));
      if (code === '\u001b[0m') codes.length = 0;
      else if (code) codes.push(code);
    }
    const close = codes.length > 0 && i < lines.length - 1 ? '\u001b[0m' : '';
    return open + line + close;
  });
}

/**
 * The text cut to `width` columns, its last one an ellipsis when cut (colour closed after it), no
 * space before it.
 */
export function cutToWidth(value: string, width: number): string {
  if (lineWidth(value) <= width) return unglue(value);
  const kept: Piece[] = [];
  let used = 0;
  for (const piece of pieces(value)) {
    if (used + piece.width > Math.max(0, width - 1)) break;
    kept.push(piece);
    used += piece.width;
  }
  // `on the…`, not `on the …`: the ellipsis stands for what was cut, beside the last word kept.
  while (kept.length > 0 && /^[ \t\u00a0]$/.test(kept.at(-1)!.text)) kept.pop();
  const coloured = kept.some((p) => p.width === 0 && p.text.startsWith('\u001b'));
  return unglue(join(kept)) + '…' + (coloured ? '\u001b[0m' : '');
}

/**
 * Pads a styled line with spaces to `width` columns, on the right or (right-aligned) on the left.
 */
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

/**
 * A column's measurements, taken once: its width is decided from them, and its cells wrapped by
 * them.
 */
export interface ColumnMeasure {
  header: TextMeasure;
  /** The widest line and the longest words of all its cells. */
  cells: TextMeasure;
  /** Columns each cell's widest line takes, in row order. */
  cellWidths: number[];
}

/** Measures the header and every cell of a column, each once. */
export function measureColumn(column: FitColumn): ColumnMeasure {
  const cellWidths = new Array<number>(column.cells.length);
  const cells: TextMeasure = { width: 0, longestWord: 0, longestKeptWord: 0 };
  column.cells.forEach((text, row) => {
    const measure = measureText(text);
    cellWidths[row] = measure.width;
    cells.width = Math.max(cells.width, measure.width);
    cells.longestWord = Math.max(cells.longestWord, measure.longestWord);
    cells.longestKeptWord = Math.max(cells.longestKeptWord, measure.longestKeptWord);
  });
  return { header: measureText(column.header), cells, cellWidths };
}

/**
 * A column's floors, one a step of fitWidths: [headers wrapped, free text narrowed, other text
 * wrapped].
 */
function floorsOf(column: FitColumn, measure: ColumnMeasure): [number, number, number] {
  const cells = measure.cells.width;
  const at = (n: number) => Math.max(measure.header.longestWord, column.minWidth ?? 0, n);
  const whole = at(cells);
  switch (column.fit) {
    case 'wrap': {
      const floor = at(Math.min(cells, Math.max(MIN_WRAP_WIDTH, measure.cells.longestKeptWord)));
      return [whole, floor, floor];
    }
    case 'cut': {
      const floor = at(Math.min(cells, MIN_CUT_WIDTH));
      return [whole, floor, floor];
    }
    case 'words':
      return [whole, whole, at(measure.cells.longestWord)];
    case 'keep':
      return [whole, whole, whole];
  }
}

/**
 * A header's words, measured once, from which its width wrapped at any width is worked out
 * (as wrapText would wrap it) without wrapping it again.
 */
class HeaderWords {
  /**
   * Per line of the header: its width as it is, and where each of its words ends, a space after
   * each.
   */
  private readonly lines: { width: number; ends: number[] }[];

  constructor(header: string) {
    this.lines = header.split('\n').map((line) => {
      // ends[j]: the columns of words 0..j-1 with a space after each, so words k..j-1 take ends[j]
      // - ends[k] - 1.
      const ends = [0];
      let word = 0;
      let inWord = false;
      const endWord = () => {
        if (inWord) ends.push(ends.at(-1)! + word + 1);
        word = 0;
        inWord = false;
      };
      for (const piece of pieces(line)) {
        if (isWordBreak(piece.text.codePointAt(0)!)) endWord();
        else {
          word += piece.width;
          inWord = true;
        }
      }
      endWord();
      return { width: lineWidth(line), ends };
    });
  }

  /**
   * Columns the header takes wrapped between its words at `width`, which is no narrower than its
   * longest word.
   */
  wrappedWidth(width: number): number {
    let widest = 0;
    for (const { width: whole, ends } of this.lines) {
      if (whole <= width) {
        widest = Math.max(widest, whole);
        continue;
      }
      // Each line takes as many words as fit, as wrapText fills them.
      for (let first = 0; first < ends.length - 1;) {
        let low = first + 1;
        let high = ends.length - 1;
        while (low < high) {
          const mid = Math.ceil((low + high) / 2);
          if (ends[mid]! - ends[first]! - 1 <= width) low = mid;
          else high = mid - 1;
        }
        widest = Math.max(widest, ends[low]! - ends[first]! - 1);
        first = low;
      }
    }
    return widest;
  }
}

/**
 * Narrows the columns above their floors by `excess` columns in all, as giving up one column at a
 * time from the widest (the first of equals) would, worked out at once rather than a column at a
 * time; returns what is left of the excess when every column is at its floor.
 */
function narrowWidestFirst(widths: number[], floors: readonly number[], excess: number): number {
  // What capping every column at `level` (none below its floor) frees.
  const freedAt = (level: number) =>
    widths.reduce((sum, width, i) => sum + Math.max(0, width - Math.max(floors[i]!, level)), 0);
  const capAt = (level: number) =>
    widths.forEach((width, i) => (widths[i] = Math.min(width, Math.max(floors[i]!, level))));
  const available = freedAt(0);
  if (available <= excess) {
    capAt(0);
    return excess - available;
  }
  // The lowest level that frees less than the excess: the columns end there, and the first of
  // those still above their floors give up one more each for what is left.
  let enough = 0;
  let short = largest(widths);
  while (short - enough > 1) {
    const mid = Math.floor((enough + short) / 2);
    if (freedAt(mid) >= excess) enough = mid;
    else short = mid;
  }
  let left = excess - freedAt(short);
  capAt(short);
  for (let i = 0; i < widths.length && left > 0; i++) {
    if (widths[i] === short && floors[i]! < short) {
      widths[i]!--;
      left--;
    }
  }
  return 0;
}

/**
 * The widths (of the text, no padding) that fit the columns in `room`, or undefined when even the
 * narrowest the rule allows is too wide: the table is then better shown as cards. Room is given up
 * in this order: headers wrap between their words (the one that frees most first); free-text
 * columns narrow to their floor, the widest first (a wrapped one keeps its words of up to 24
 * columns whole); other text wraps between words, the widest first. Kept columns never narrow.
 * Widths are decided from each text measured once (`measures`, when the caller has them already).
 */
export function fitWidths(
  columns: readonly FitColumn[],
  room: number,
  measures: readonly ColumnMeasure[] = columns.map(measureColumn),
): number[] | undefined {
  const widths = measures.map((m) => Math.max(m.header.width, m.cells.width));
  let excess = widths.reduce((a, b) => a + b, 0) - room;
  if (excess <= 0) return widths;
  const floors = columns.map((c, i) => floorsOf(c, measures[i]!));
  // Headers first: a header wrapped onto one more line gives up all the room that line frees.
  const headers = columns.map((c) => new HeaderWords(c.header));
  const narrower = (i: number) => Math.max(floors[i]![0], headers[i]!.wrappedWidth(widths[i]! - 1));
  const next = widths.map((width, i) => (width > floors[i]![0] ? narrower(i) : width));
  while (excess > 0) {
    let best = -1;
    widths.forEach((width, i) => {
      if (width > floors[i]![0] && (best < 0 || width - next[i]! > widths[best]! - next[best]!))
        best = i;
    });
    if (best < 0) break;
    excess -= widths[best]! - next[best]!;
    widths[best] = next[best]!;
    if (widths[best]! > floors[best]![0]) next[best] = narrower(best);
  }
  for (const step of [1, 2]) {
    if (excess > 0) {
      excess = narrowWidestFirst(
        widths,
        floors.map((f) => f[step]!),
        excess,
      );
    }
  }
  return excess > 0 ? undefined : widths;
}

/**
 * The lines of one cell at `width` columns, as its column's Fit says (`textWidth`: the cell's
 * width, when measured already).
 */
export function cellLines(
  text: string,
  width: number,
  fit: Fit,
  textWidth = visibleWidth(text),
): string[] {
  if (textWidth <= width || fit === 'keep') return unglue(text).split('\n');
  if (fit === 'cut') return text.split('\n').map((line) => cutToWidth(line, width));
  return wrapText(text, width);
}

/**
 * The narrowest a value is made beside its label; a label that leaves less goes on a line of its
 * own.
 */
const MIN_VALUE_WIDTH = 20;

/**
 * A label and its value; `whole`: the value is declared whole (a `keep` column), one word however
 * many it has.
 */
export type Labelled = readonly [label: string, value: string, whole?: boolean];

/**
 * Labelled values for people, `LABEL  value`, the labels padded to one width and each value wrapped
 * at word boundaries with a hanging indent. A value with a word that stays whole (or a value
 * declared whole) too wide to sit beside its label starts on a line of its own, unindented, under
 * it. A label too long to leave a value room is written on a line of its own (wrapped, if wider
 * than the terminal), its value under it at the indent, or unindented as above.
 */
export function labelledLines(
  pairs: readonly Labelled[],
  width: number,
  paintLabel: (text: string) => string,
  widest = largest(pairs.map(([label]) => lineWidth(label))),
): string {
  const labelWidth = Math.min(widest, Math.max(1, width - 2 - MIN_VALUE_WIDTH));
  const room = Math.max(1, width - labelWidth - 2);
  const indent = ' '.repeat(labelWidth + 2);
  let out = '';
  for (const [label, value, whole] of pairs) {
    // A value declared whole is never wrapped; any other is wrapped between its words, a word that
    // stays whole kept so.
    const wrapped = (at: number) =>
      whole
        ? { lines: unglue(value).split('\n'), tooWide: visibleWidth(value) > at }
        : wrapMeasured(value, at);
    const beside = wrapped(room);
    const labelFits = lineWidth(label) <= labelWidth;
    if (labelFits && !beside.tooWide) {
      out += paintLabel(padTo(label, labelWidth)) + '  ' + beside.lines.join('\n' + indent) + '\n';
      continue;
    }
    out += (labelFits ? [label] : wrapText(label, width))
      .map((line) => paintLabel(line) + '\n')
      .join('');
    // Too wide for the room beside the label: the value is given the terminal's width, unindented.
    out +=
      (beside.tooWide ? wrapped(width).lines : beside.lines.map((line) => indent + line)).join(
        '\n',
      ) + '\n';
  }
  return out;
}

/**
 * One row of a table too wide for the terminal, as a card: `HEADER  value` lines (labelledLines,
 * the headers painted), the values that are not `shown` (by default those that take no room) left
 * out; a row with none shown keeps its first column.
 */
export function card(
  pairs: readonly Labelled[],
  width: number,
  paintHeader: (text: string) => string,
  shown: (value: string) => boolean = (value) => visibleWidth(value) > 0,
): string {
  const filled = pairs.filter(([, value]) => shown(value));
  return labelledLines(filled.length ? filled : pairs.slice(0, 1), width, paintHeader);
}
