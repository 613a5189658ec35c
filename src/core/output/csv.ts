// The one encoder of every CSV svc writes (whole replies: records.ts; streamed results:
// stream/record-writers.ts): RFC 4180 fields that a spreadsheet opens as data, never as formulas.
//
// Formula injection (docs/reference/output.md, "CSV"; OWASP "CSV Injection", CWE-1236): a
// spreadsheet runs a cell that starts with =, +, -, @, a tab or a carriage return as a formula
// (`=HYPERLINK(…)`, `-2+3+cmd|' /C calc'!A0`), and a transaction's description is written by
// whoever made the statement. Such a cell is written with a ' in front, which makes it text. The
// one exception is a plain number as JSON writes one (-12.5, 1e-7): a spreadsheet reads it as that
// number, and it has no operator, name or reference for a formula to use, so a negative amount
// stays a number, whether the service sent it as a number or as text. The rule looks at a cell's
// text, whatever its JSON type, and covers the header row too (its names are the reply's keys). A
// program that joins on the values asks for them as received (--no-formula-guard): `guard` false.
import { ExactNumber } from '../json/exact-number.js';
import { compactJson } from './compact-json.js';

/**
 * A formula's first character, after any characters that a terminal's copy of the CSV drops
 * (format.ts `machineTextForTerminal`): dropping them must not uncover a formula.
 */
const FORMULA_START =
  /^[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*[=+\-@\t\r]/;
/** A number as JSON writes one. */
const PLAIN_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The text with a ' in front when a spreadsheet would run it as a formula. */
export function withoutFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * One field: kept from running as a formula (unless `guard` is false), then quoted if it holds a
 * comma, quote or line break.
 */
export function csvField(text: string, guard = true): string {
  const safe = guard ? withoutFormula(text) : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One line of fields, ended by CRLF. */
export function csvLine(fields: readonly string[], guard = true): string {
  return fields.map((field) => csvField(field, guard)).join(',') + '\r\n';
}

/** The text of a value from a reply in its cell: as received, nested values as compact JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof ExactNumber) return value.text;
  return compactJson(value);
}

/** One value from a reply as a field. */
export function csvCell(value: unknown, guard = true): string {
  return csvField(valueText(value), guard);
}
