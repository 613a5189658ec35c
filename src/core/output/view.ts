// What a command shows, described once; render.ts turns it into a table, CSV or JSON lines.
import type { Paint } from './paint.js';

export type Cell = string | number | boolean | null | undefined;

export interface Column<T> {
  /** Machine name: the CSV header. */
  key: string;
  /** Name for people: the table header. */
  header: string;
  /** The raw value, as CSV carries it. */
  value: (row: T) => Cell;
  /** The value formatted for people; by default the raw value as text. */
  display?: (row: T, paint: Paint) => string;
  align?: 'left' | 'right';
  /** Free text that may wrap when the table is wider than the terminal. */
  flex?: boolean;
}

export interface ListView<T> {
  kind: 'list';
  columns: Column<T>[];
  rows: T[];
  /** Splits the rows into titled tables on a terminal, and becomes the first column elsewhere. */
  section?: { key: string; header: string; value: (row: T) => string };
  /** The items of a list reply, one JSON line each with `-o ndjson`; the whole body otherwise. */
  items?: unknown[];
  /** Shown above a terminal table only. */
  title?: string;
  /** Shown on a terminal instead of an empty table. */
  empty?: string;
  /** Lines always shown under a table (attribution and the like). */
  footer?: string[];
}

export interface RecordView<T> {
  kind: 'record';
  fields: Column<T>[];
  record: T;
  title?: string;
  footer?: string[];
}

export type View = ListView<any> | RecordView<any>;
