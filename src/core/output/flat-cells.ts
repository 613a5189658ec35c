// The cells of one record in a CSV file, which holds no JSON in a cell (docs/reference/output.md,
// "CSV"). Nested objects go to dotted columns (`period.from`), the items of a nested list to
// columns by their index (`counterparties.0.name`), and a list of plain values to one cell, joined
// with `; ` (`identity; income`: a comma would read as a list of columns to a person). The cells
// are read from the record's JSON text (flatCells), or from the record as read (valueCells: numbers
// kept as received by exact-json.ts), so numbers keep every digit; a key given twice counts once,
// with its last value, as JSON.parse takes it.
import { ExactNumber } from '../json/exact-number.js';
import {
  compactText,
  endOfValue,
  fieldsOf,
  isNested,
  itemsOf,
  nextSignificant,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from '../json/json-text.js';
import { compactJson, MAX_DEPTH } from './compact-json.js';

/** A record's column names and cell texts, in the order of its fields. */
export type Cells = Map<string, string>;

/**
 * The cells of the record whose JSON text is `text`; a record that is no object has one cell,
 * `value`.
 */
export function flatCells(text: string): Cells {
  const cells: Cells = new Map();
  const start = nextSignificant(text, 0);
  if (text.charCodeAt(start) === OPEN_OBJECT) {
    for (const [key, span] of fieldsOf(text, start)) addCells(cells, text, span, key, 1);
  } else {
    addCells(cells, text, { start, end: endOfValue(text, start) }, 'value', 1);
  }
  return cells;
}

interface Span {
  start: number;
  end: number;
}

function addCells(cells: Cells, raw: string, span: Span, name: string, depth: number): void {
  const c = raw.charCodeAt(span.start);
  // Past this depth the value keeps its text whole: a reply may nest 100,000 levels.
  if ((c === OPEN_OBJECT || c === OPEN_ARRAY) && depth > MAX_DEPTH) {
    cells.set(name, compactText(raw, span.start, span.end));
  } else if (c === OPEN_OBJECT) {
    const fields = fieldsOf(raw, span.start);
    if (fields.size === 0) cells.set(name, '');
    for (const [key, child] of fields) addCells(cells, raw, child, `${name}.${key}`, depth + 1);
  } else if (c === OPEN_ARRAY) {
    const items = [...itemsOf(raw, span.start)];
    if (items.every((item) => !isNested(raw, item.start))) {
      cells.set(name, items.map((item) => scalarText(raw, item)).join('; '));
    } else {
      items.forEach((item, index) => addCells(cells, raw, item, `${name}.${index}`, depth + 1));
    }
  } else {
    cells.set(name, scalarText(raw, span));
  }
}

/**
 * A string, number, true, false or null as a cell: a string's text, a number as written, null
 * blank.
 */
function scalarText(raw: string, span: Span): string {
  const text = raw.slice(span.start, span.end);
  if (raw.charCodeAt(span.start) === QUOTE)
    return text.includes('\\') ? (JSON.parse(text) as string) : text.slice(1, -1);
  return text === 'null' ? '' : text;
}

/**
 * The cells of a record as read (JSON.parse's values, ExactNumbers for numbers it would change), as
 * flatCells makes them of its text.
 */
export function valueCells(record: unknown): Cells {
  const cells: Cells = new Map();
  if (isObject(record))
    for (const [key, value] of Object.entries(record)) addValueCells(cells, value, key, 1);
  else addValueCells(cells, record, 'value', 1);
  return cells;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof ExactNumber);
const isNestedValue = (value: unknown) => Array.isArray(value) || isObject(value);

function addValueCells(cells: Cells, value: unknown, name: string, depth: number): void {
  // Past this depth the value keeps its text whole: a reply may nest 100,000 levels.
  if (isNestedValue(value) && depth > MAX_DEPTH) {
    cells.set(name, compactJson(value));
  } else if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) cells.set(name, '');
    for (const [key, child] of entries) addValueCells(cells, child, `${name}.${key}`, depth + 1);
  } else if (Array.isArray(value)) {
    if (value.every((item) => !isNestedValue(item)))
      cells.set(name, value.map(scalarValueText).join('; '));
    else value.forEach((item, index) => addValueCells(cells, item, `${name}.${index}`, depth + 1));
  } else {
    cells.set(name, scalarValueText(value));
  }
}

/** A string, number, true, false or null as a cell, as scalarText writes it. */
function scalarValueText(value: unknown): string {
  if (value instanceof ExactNumber) return value.text;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
