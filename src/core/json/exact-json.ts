// Reading a reply without losing a digit. JSON.parse makes 125000.50 into 125000.5,
// 12345678901234567890 into 12345678901234567000 and 1e400 into Infinity; what a script is shown
// must be the service's own value. This reader builds the values JSON.parse builds, except that a
// number JSON.parse would not give back as written is an ExactNumber holding its text. A reply
// with no such number is left as JSON.parse made it: the reader runs only where it changes
// something. A number the reply repeats is one value, however often it comes: an ExactNumber and a
// string for each `1.10,` of a 16 MiB reply would take 13 times the reply's size.
import { ExactNumber, readsBackAsWritten } from './exact-number.js';
import {
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COMMA,
  endOfScalar,
  endOfString,
  nextSignificant,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from './json-text.js';

/**
 * The number texts a reading keeps with their values, so that a repeated one is made once; a reply
 * of all-different numbers stops adding past this.
 */
const MAX_KNOWN_NUMBERS = 65_536;

/**
 * A number token (after `[`, `:`, `,` or at the start) that JSON.parse may not give back as
 * written: one with an exponent, a fraction ending in 0, -0, one of 16 digits or more (the digits
 * a double keeps: up to 15 always come back), or one under 1e-6 (written back with an exponent).
 * Any other number comes back as written. Text inside strings may match too; that costs only
 * a second, lossless, reading.
 */
const MAY_BE_INEXACT =
  /(?:^|[[:,])[ \t\n\r]*(?:-0(?![.\deE])|-?(?:\d[\d.]*[eE]|\d+\.\d*0(?!\d)|\d[\d.]{15}|0\.0{6}))/;

/** False when no number of the JSON text can have lost anything to JSON.parse. */
export function mayHoldInexactNumber(raw: string): boolean {
  return MAY_BE_INEXACT.test(raw);
}

/**
 * The reply as it is to be shown: `parsed` (JSON.parse of `raw`) when no number of it lost
 * anything, else `raw` read by readExactJson.
 */
export function exactBody(raw: string, parsed: unknown): unknown {
  if (parsed === null || typeof parsed !== 'object')
    return typeof parsed === 'number' && !readsBackAsWritten(raw.trim())
      ? new ExactNumber(raw.trim())
      : parsed;
  return mayHoldInexactNumber(raw) ? readExactJson(raw) : parsed;
}

/**
 * The values of valid JSON text (text JSON.parse has accepted), as JSON.parse makes them, but for
 * the numbers it would not give back as written: those are ExactNumbers. Nesting of any depth is
 * read without recursion.
 */
export function readExactJson(raw: string): unknown {
  /**
   * The open objects and lists, innermost last, with the key each object's next value goes under.
   */
  const open: (unknown[] | Record<string, unknown>)[] = [];
  const keys: string[] = [];
  const numbers = new Map<string, number | ExactNumber>();
  let i = nextSignificant(raw, 0);
  for (;;) {
    let value: unknown;
    const c = raw.charCodeAt(i);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      const next = nextSignificant(raw, i + 1);
      if (raw.charCodeAt(next) !== close) {
        // A value to read first: the container waits, open.
        open.push(c === OPEN_OBJECT ? {} : []);
        i = c === OPEN_OBJECT ? readKey(raw, next, keys, open.length - 1) : next;
        continue;
      }
      value = c === OPEN_OBJECT ? {} : [];
      i = next + 1;
    } else if (c === QUOTE) {
      const end = endOfString(raw, i);
      value = stringAt(raw, i, end);
      i = end;
    } else {
      const end = endOfScalar(raw, i);
      value = scalar(raw.slice(i, end), numbers);
      i = end;
    }
    // The value goes into the container it ends; each container it closes goes into the one around
    // it.
    for (;;) {
      const depth = open.length - 1;
      if (depth < 0) return value;
      const container = open[depth]!;
      if (Array.isArray(container)) container.push(value);
      else setField(container, keys[depth]!, value);
      i = nextSignificant(raw, i);
      if (raw.charCodeAt(i) === COMMA) {
        i = nextSignificant(raw, i + 1);
        if (!Array.isArray(container)) i = readKey(raw, i, keys, depth);
        break;
      }
      // `}` or `]`: the container is whole.
      i++;
      value = open.pop();
    }
  }
}

/**
 * Reads the key at `at` (and its colon) into `keys[depth]`; the index of the value that follows.
 */
function readKey(raw: string, at: number, keys: string[], depth: number): number {
  const end = endOfString(raw, at);
  keys[depth] = stringAt(raw, at, end);
  // Past the colon.
  return nextSignificant(raw, nextSignificant(raw, end) + 1);
}

/** The string whose text (quotes included) runs from `start` to `end`. */
function stringAt(raw: string, start: number, end: number): string {
  const text = raw.slice(start + 1, end - 1);
  return text.includes('\\') ? (JSON.parse(raw.slice(start, end)) as string) : text;
}

/**
 * The value of a number, true, false or null; `numbers`: the numbers read so far, by their text.
 */
function scalar(text: string, numbers: Map<string, number | ExactNumber>): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  let value = numbers.get(text);
  if (value === undefined) {
    value = readsBackAsWritten(text) ? Number(text) : new ExactNumber(text);
    if (numbers.size < MAX_KNOWN_NUMBERS) numbers.set(text, value);
  }
  return value;
}

/** Sets a field as JSON.parse does: `__proto__` too is a field of its own, not the prototype. */
function setField(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else record[key] = value;
}
