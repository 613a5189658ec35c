// Formatting of values for people: amounts, counts, booleans (times: time.ts). Machine formats
// and tables in a pipe never use these: they carry values as received.
import { ExactNumber } from '../json/exact-number.js';
import { formatDecimal } from './decimal.js';

/** A number, or the decimal text of one ("125000.50"), written exactly, every digit kept. */
type Decimal = number | string;

/** An amount as written in Nepal: lakh grouping and two decimals (1,25,000.00). */
export function formatAmount(value: Decimal | ExactNumber | null | undefined): string {
  if (value === null || value === undefined) return '';
  return formatDecimal(decimalOf(value), { minimum: 2, maximum: 2 });
}

export function formatCount(value: Decimal | ExactNumber | null | undefined): string {
  if (value === null || value === undefined) return '';
  return formatDecimal(decimalOf(value), { minimum: 0, maximum: 0 });
}

function decimalOf(value: Decimal | ExactNumber): Decimal {
  return value instanceof ExactNumber ? value.text : value;
}

/** A plain decimal, as a reply may write an amount in a string ("12450.30"). */
const DECIMAL_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * Money as every view shows it to people: after its currency when one is known, lakh grouping and
 * two decimals (NPR 1,25,000.00), every digit of a number kept as received. Undefined for what is
 * no amount (a text, an object, a number no double can hold such as 1e400): a view shows that as
 * it came.
 */
export function formatMoney(value: unknown, currency?: string): string | undefined {
  let amount: Decimal | undefined;
  if (value instanceof ExactNumber)
    amount = Number.isFinite(value.valueOf()) ? value.text : undefined;
  else if (typeof value === 'number') amount = Number.isFinite(value) ? value : undefined;
  else if (typeof value === 'string' && DECIMAL_TEXT.test(value)) amount = value.trim();
  if (amount === undefined) return undefined;
  return currency ? `${currency} ${formatAmount(amount)}` : formatAmount(amount);
}

export function formatBoolean(value: boolean | null | undefined): string {
  return value === true ? 'yes' : value === false ? 'no' : '';
}

/**
 * Bidirectional controls: shown, they would put a text's characters in another order (a name that
 * reads as another).
 */
const BIDI = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const UNPRINTABLE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${BIDI}]`, 'g');
/**
 * What a terminal must not get raw from JSON text: DEL, the C1 controls and the bidirectional ones.
 */
const UNSAFE_IN_JSON = new RegExp(`[\\u007f-\\u009f${BIDI}]`, 'g');
/** As UNPRINTABLE, but for a CR that ends a CSV line. */
const UNPRINTABLE_IN_CSV = new RegExp(
  `\\r(?!\\n)|[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${BIDI}]`,
  'g',
);
const BIDI_CONTROLS = new RegExp(`[${BIDI}]`, 'g');

/**
 * Removes control characters so text from the service cannot move the cursor or recolour the
 * terminal, and the bidirectional controls that would make it show its characters in another
 * order (a name that reads as something else).
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, '');
}

/**
 * True when the text holds a C0 control character or DEL: it cannot be one line, one word, or part
 * of a URL.
 */
export function hasControlCharacter(text: string): boolean {
  return /[\u0000-\u001f\u007f]/.test(text);
}

/**
 * JSON text to show on a terminal: DEL, the C1 controls and the bidirectional controls written as
 * \u escapes. In JSON text these can only be inside strings (a C0 control cannot be there
 * unescaped), so the text still means the same value.
 */
export function terminalJson(text: string): string {
  return text.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Machine output shown on a terminal: CSV made printable but for its CRLF line ends; JSON and
 * NDJSON with those characters escaped.
 */
export function machineTextForTerminal(format: 'json' | 'ndjson' | 'csv', text: string): string {
  return format === 'csv' ? text.replace(UNPRINTABLE_IN_CSV, '') : terminalJson(text);
}

/** One cell of a tab-separated line: tabs and line breaks become a space (colour codes stay). */
export function tabCell(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}

/**
 * Text for one line of a message: runs of control characters (line breaks too) become one space;
 * bidirectional controls go.
 */
export function oneLine(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(BIDI_CONTROLS, '')
    .trim();
}

/** What masks the run's secrets in a text (secrets.ts). */
export interface Masker {
  mask(text: string): string;
}

/**
 * The one way text a peer sent (the service, svc mock, a webhook sender, a forward target) enters
 * a line that svc prints outside a table (a table's cells are made printable with the reply:
 * printableDeep): secrets masked first, so a key split by `ESC[0m` still reads as the key; then
 * line breaks and tabs made spaces, and every other control character and the bidirectional ones
 * dropped, as a table's cells drop them (an id keeps its characters together); cut past `max`.
 */
export function shownText(text: string, secrets: Masker, max = Number.POSITIVE_INFINITY): string {
  const line = printable(secrets.mask(text).replace(/[\t\n\v\f\r]+/g, ' ')).trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** Past this depth a copy stops: views shown to people cut their nesting well before it. */
const PRINTABLE_DEPTH = 64;

/**
 * The parsed reply with every string (keys too) passed through `clean` (by default made
 * printable), for views shown to people. What `clean` leaves as it is, is not copied: a reply of
 * clean text is given back as it is, and a big one is not made again object by object.
 */
export function printableDeep<T>(
  value: T,
  clean: (text: string) => string = printable,
  depth = 0,
): T {
  if (typeof value === 'string') return clean(value) as T;
  if (value === null || typeof value !== 'object' || value instanceof ExactNumber) return value;
  if (depth > PRINTABLE_DEPTH) return null as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const cleaned = printableDeep(item, clean, depth + 1);
      if (copy) copy.push(cleaned);
      else if (cleaned !== item) copy = [...(value as unknown[]).slice(0, i), cleaned];
    }
    return (copy ?? value) as T;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const child = record[key];
    const cleanKey = clean(key);
    const cleaned = printableDeep(child, clean, depth + 1);
    if (!copy && (cleanKey !== key || cleaned !== child)) {
      copy = {};
      for (const before of Object.keys(record)) {
        if (before === key) break;
        setField(copy, before, record[before]);
      }
    }
    if (copy) setField(copy, cleanKey, cleaned);
  }
  return (copy ?? value) as T;
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

/** A number with at most two decimals, lakh grouping: 1,25,000.5. */
export function plainNumber(n: number): string {
  return formatDecimal(n, { minimum: 0, maximum: 2 });
}

/** A number with its sign always written, but for zero: +100, -20, 0 (a score's contributions). */
export function signedNumber(n: number): string {
  return formatDecimal(n, { minimum: 0, maximum: 2, sign: 'exceptZero' });
}

/** A share given in percent (`emi_load_pct` 45.5): 45.5%. */
export function formatPercent(n: number): string {
  return `${plainNumber(n)}%`;
}

/** A share given as a fraction (a FOIR of 0.455, a confidence of 0.95): 45.5%, 95%. */
export function formatFraction(n: number): string {
  // Scaled in decimal text, so that 0.2205 is 22.05% and not 22.049999999999997%.
  return formatPercent(Number((n * 100).toPrecision(12)));
}

/** Reasons, checks' messages, a decision's rationale: one bullet a line. */
export function bullets(items: readonly string[]): string {
  return items.map((item) => `• ${item}`).join('\n');
}
