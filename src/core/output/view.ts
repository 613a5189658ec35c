// What a command shows people, described once; render.ts turns it into a boxed table on a
// terminal or tab-separated lines in a pipe. Machine formats (JSON, ndjson, CSV) are made from the
// reply itself, never from a view (records.ts).
import type { Fitting } from './fit.js';
import type { Paint } from './paint.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ListView<T> and RecordView<T> are invariant in T
   (rows go in, value(row) reads them): any is the one type argument that takes every view. */

export type Cell = string | number | boolean | null | undefined;

/**
 * One column of a table, or one field of a field list. How it fits a narrow terminal (fit.ts) is
 * data: `keep` for what is never cut nor split across lines (URLs, ids, keys, tokens, dates and
 * times, enumeration names, amounts, names), `flex` for free text that gives up room first
 * (wrapped, or `'cut'` to one line with an ellipsis); anything else keeps its words whole and wraps
 * between them only when room runs short. A table that still does not fit is shown as one card
 * per row; a kept value too wide to sit beside its label starts a line of its own.
 */
export interface Column<T> extends Fitting {
  /**
   * Machine name: the reply's field the column shows (dotted when nested), as --columns names it.
   */
  key: string;
  /**
   * Other names of the field the column also reads (a newer shape's `name` for `description`):
   * --columns takes them too.
   */
  also?: readonly string[];
  /** Name for people: the table header. */
  header: string;
  /**
   * The header a pipe writes instead, where it differs (the generic view's keys there keep their
   * dots: `FOIR.WITH LOAN`).
   */
  pipeHeader?: string;
  /** The raw value. */
  value: (row: T) => Cell;
  /** The value formatted for people; by default the raw value as text. */
  display?: (row: T, paint: Paint) => string;
  /**
   * The display only formats the value for people (grouping, currency, a sign, a unit): a pipe
   * writes the value as the service sent it instead, every digit kept (docs/reference/output.md,
   * "Tables").
   */
  formatsValue?: boolean;
  /**
   * The currency of a column of amounts (its display grouped, without it): a terminal's table names
   * it once in the header, `DEBIT (NPR)`, so that narrow tables keep room for text; a card puts it
   * before each amount, `NPR 7,398.58`, as a field list does. A pipe writes neither.
   */
  currency?: string;
  /**
   * What a terminal's field list says of the field when it has no value (an empty list: `none`),
   * rather than leave it out.
   */
  empty?: string;
  align?: 'left' | 'right';
  /**
   * Whether a terminal shows it (docs/reference/output.md, "Tables"): by default it is one of the
   * list's default columns; `room`, only where the table has room for it as it is (fields no
   * document shows); `wide`, only with `-o wide` or --columns. A pipe writes every column.
   */
  show?: 'room' | 'wide';
  /**
   * How long a terminal too narrow for every default column keeps it: the column of the highest
   * rank is left out first, of equal ranks the last one (0 by default).
   */
  rank?: number;
}

export interface ListView<T> {
  kind: 'list';
  columns: Column<T>[];
  rows: T[];
  /** Splits the rows into titled tables on a terminal, and becomes the first column elsewhere. */
  section?: { key: string; header: string; value: (row: T) => string };
  /**
   * A value every row shares (the month of a dataset): a terminal shows it in the title, a pipe as
   * the first column.
   */
  shared?: { key: string; header: string; value: string };
  /**
   * The columns --columns named, in its order (pick.ts): a pipe writes them alone, without the
   * section and shared columns it adds otherwise, and a terminal shows every one it has room for.
   */
  picked?: boolean;
  /** Shown above a terminal table only. */
  title?: string;
  /** Shown on a terminal instead of an empty table. */
  empty?: string;
  /**
   * Lines always shown with a table (attribution and the like): under it on a terminal, on stderr
   * in a pipe.
   */
  footer?: string[];
  /**
   * What the table leaves out (columns past its bound): said under it on a terminal, and on
   * stderr in a pipe, whose stdout keeps one header line and one line a row.
   */
  notes?: string[];
}

export interface RecordView<T> {
  kind: 'record';
  fields: Column<T>[];
  record: T;
  title?: string;
  /** As a list's: under the fields on a terminal, on stderr in a pipe. */
  footer?: string[];
}

/** One table or field list of a view made of several, under its heading. */
export interface Part {
  heading?: string;
  view: ListView<any> | RecordView<any>;
}

/** Several tables and field lists, one after the other: a designed view and what it leaves over. */
export interface SectionsView {
  kind: 'sections';
  parts: Part[];
  title?: string;
  /** Shown on a terminal when there is no part at all. */
  empty?: string;
  /** As a list's: under everything on a terminal, on stderr in a pipe. */
  footer?: string[];
  /** Advice for a person, under everything on a terminal; never in a pipe. */
  hints?: string[];
  /** Set for the reply of a list command: what a pipe gets of it instead of the parts. */
  pipe?: PipeLayout;
}

/**
 * A list reply in a pipe (docs/reference/output.md, "Tables"): stdout holds its items alone, one
 * header line and one line an item, for `cut` and `tail` to read; the reply's other fields go to
 * stderr, a line each.
 */
export interface PipeLayout {
  items: ListView<any>;
  /** The reply's fields beside its items, as `name: value` lines. */
  aside: string[];
}

export type View = ListView<any> | RecordView<any> | SectionsView;

/** The notes of every table of a view (ListView `notes`), in order. */
export function notesOf(view: View): string[] {
  if (view.kind === 'sections') return view.parts.flatMap((part) => notesOf(part.view));
  return view.kind === 'list' ? (view.notes ?? []) : [];
}

/**
 * What a pipe writes on stderr for a view, where a terminal shows it with the tables: the reply's
 * fields beside a list's items, what a table left out, and the footers (attributions).
 */
export function pipeRemarks(view: View): string[] {
  if (view.kind === 'sections' && view.pipe)
    return [...view.pipe.aside, ...notesOf(view.pipe.items), ...footersOf(view)];
  return [...notesOf(view), ...footersOf(view)];
}

function footersOf(view: View): string[] {
  const own = view.footer ?? [];
  return view.kind === 'sections'
    ? [...view.parts.flatMap((part) => footersOf(part.view)), ...own]
    : own;
}
