// Compact JSON of a value from a reply, for one cell (a table's or a CSV file's): nesting is cut
// at a depth, where JSON.stringify would overflow the stack on a reply nested 100,000 levels.
// Numbers kept as received (exact-number.ts) are written as received.
import { ExactNumber } from '../json/exact-number.js';

/** Deeper than this, a value is shown as an ellipsis: a reply may nest 100,000 levels. */
export const MAX_DEPTH = 24;

/** Compact JSON of a value, its nesting cut at MAX_DEPTH. */
export function compactJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) return '"…"';
  if (value instanceof ExactNumber) return value.text;
  if (Array.isArray(value))
    return `[${value.map((item) => compactJson(item, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${compactJson(v, depth + 1)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
