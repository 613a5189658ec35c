// Formatting of values for people: amounts, counts, booleans (times: time.ts). Machine formats never use these.

// Made on first use: loading the locale's data costs more than most commands' own work.
let npr: Intl.NumberFormat | undefined;
let count: Intl.NumberFormat | undefined;

/** An amount as written in Nepal: lakh grouping and two decimals (1,25,000.00). */
export function formatAmount(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  npr ??= new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return npr.format(value);
}

export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  count ??= new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
  return count.format(value);
}

export function formatBoolean(value: boolean | null | undefined): string {
  return value === true ? 'yes' : value === false ? 'no' : '';
}

/** Removes control characters so text from the service cannot move the cursor or recolour the terminal. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** One cell of a tab-separated line: tabs and line breaks become a space (colour codes stay). */
export function tabCell(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}

/** Text for one line of a message: runs of control characters (line breaks too) become one space. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/** Past this depth a copy stops: views shown to people cut their nesting well before it. */
const PRINTABLE_DEPTH = 64;

/**
 * A copy of a parsed reply with every string (keys too) passed through `clean` (by default made
 * printable), for views shown to people.
 */
export function printableDeep<T>(value: T, clean: (text: string) => string = printable, depth = 0): T {
  if (typeof value === 'string') return clean(value) as T;
  if (depth > PRINTABLE_DEPTH) return (typeof value === 'object' && value !== null ? null : value) as T;
  if (Array.isArray(value)) return value.map((item) => printableDeep(item, clean, depth + 1)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [clean(k), printableDeep(v, clean, depth + 1)])) as T;
  }
  return value;
}
