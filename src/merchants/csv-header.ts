// Whether a --file given without --column is a bank statement or another CSV file with a header
// row (`date,narration,amount`), which read one lookup a line would send every whole line as a
// merchant name, its account number included, a billing unit for each 1000 of them. Such a file is
// refused before anything is sent; this module decides, from at most the first 64 KiB of the file.
//
// A comma alone proves nothing: a merchant name may hold one ("Bhat-Bhateni Supermarket, Pvt.
// Ltd."), and a statement's narration several ("MPAY 2222020006840462,492738040,MOB"). A line among
// the first 20 that are not blank reads as a header row when, for one of the separators `,` `;`
// tab or `|`:
//   1. it splits (CSV quoting honoured: `"Date","Narration, full"`) into 2 or more fields, each of
//      which looks like a column name: some letters, at most 40 characters and 5 words, no run of
//      4 digits or more (a year, an amount, a terminal number), or, holding a usual word of column
//      names, at most 80 characters (`Date (2024/25)`, `Withdrawal Amount in Nepalese Rupees`);
//      at most one field empty (an index column);
//   2. the records after it (up to 20, quoted line breaks inside a field honoured) all split into
//      as many fields, or fewer with the missing ones at the end (empty trailing cells), but for
//      a footer of one-field lines after two of them; at least one follows when it is not the
//      first line; and
//   3. something shows it is a header rather than a lookup: a column whose cells below are all
//      numbers or dates where the header has text (a statement's date or amount column), or two
//      fields or more that are usual column names (`Date`, `Txn Date`, `Narration`, `Withdrawal
//      Amt`, `मिति`, ...; every word of the field in COLUMN_WORDS below).
// The lines above a header row are a bank's heading (its name, the account, the period): the
// first line that reads as a header row is the one. A file of one line is refused only by the
// usual names (3), as it has no records to compare. So a names file whose first name holds a
// comma is read as names: the lines after it hold no comma at the same place; and a file of
// "name, branch" lines too, unless its branches are numbers.
//
// A statement with no such header row in reach still gives itself away by its account line
// (`Account Number: 0123456789012345`, `A/C No.: …`, `खाता नं: …`) among the same first lines:
// refused too (accountLineOf). A file whose first line is a terminal number is a list of lookups,
// decided at once, so that calls start while a pipe of them is still written. A file wrongly taken
// for a statement can still be read one lookup a line with --no-header.
//
// Separators: a comma (the CSV of most exports), a semicolon (spreadsheets set to a decimal
// comma), a tab (TSV) and `|`. --column reads the file with the separator that splits its header
// row with that column into the most fields, from that row on (columnRowOf), so a refusal's advice
// works for all four, and a bank's heading above the table needs no editing away.

/**
 * The bytes of a file's start the decision reads; always this many (or the whole file), so it is
 * the same however the input comes in chunks.
 */
export const HEADER_SAMPLE_BYTES = 64 * 1024;
/** Lines (not blank) at the start of a file where a header row or an account line may be. */
export const LINES_SEARCHED = 20;
/** Records after a header row compared with it. */
const RECORDS_COMPARED = 20;
const SEPARATORS = [',', ';', '\t', '|'] as const;
export type Separator = (typeof SEPARATORS)[number];

/** Words of the usual column names of statements and merchant lists, lower-case. */
const COLUMN_WORDS = new Set([
  // when
  'date',
  'time',
  'day',
  'posted',
  'posting',
  'value',
  'txn',
  'tran',
  'trans',
  'transaction',
  'tx',
  'booking',
  'dt',
  // what
  'narration',
  'narrative',
  'description',
  'desc',
  'details',
  'detail',
  'particulars',
  'particular',
  'remarks',
  'remark',
  'memo',
  'note',
  'notes',
  'purpose',
  'reference',
  'ref',
  'cheque',
  'chq',
  'check',
  'instrument',
  'mode',
  'channel',
  // how much
  'amount',
  'amt',
  'debit',
  'debits',
  'credit',
  'credits',
  'dr',
  'cr',
  'withdrawal',
  'withdrawals',
  'deposit',
  'deposits',
  'balance',
  'bal',
  'running',
  'closing',
  'opening',
  'currency',
  'ccy',
  'npr',
  'in',
  'out',
  // who and where
  'merchant',
  'name',
  'payee',
  'payer',
  'beneficiary',
  'counterparty',
  'terminal',
  'tid',
  'mid',
  'mcc',
  'category',
  'city',
  'account',
  'acct',
  'ac',
  'a/c',
  'type',
  'status',
  'code',
  'id',
  'no',
  'number',
  'num',
  'sn',
  's.n',
  'serial',
  'sl',
  'of',
  'and',
  // Nepali, as exports in Devanagari head their columns (मिति, विवरण, डेबिट, मौज्दात)
  'मिति',
  'कारोबार',
  'विवरण',
  'कैफियत',
  'सन्दर्भ',
  'चेक',
  'नं',
  'नम्बर',
  'रकम',
  'डेबिट',
  'क्रेडिट',
  'जम्मा',
  'झिकेको',
  'निकासी',
  'मौज्दात',
  'ब्यालेन्स',
  'बाँकी',
  'नाम',
  'खाता',
  'क्र.सं',
  'सि.नं',
]);
/**
 * Words that join others in column names and merchant names alike (`Bank of Kathmandu`): no sign of
 * a column name alone.
 */
const JOINING_WORDS = new Set(['of', 'and', 'in', 'out', 'no']);

export interface CsvHeader {
  separator: Separator;
  /** The header's fields, trimmed. */
  columns: string[];
  /** The column a person most likely wants: the one with the longest text below it. */
  suggested: string;
  /**
   * The line it is on, counted from 1 as an editor counts; past 1, the lines above are a heading.
   */
  line: number;
}

/** A line of the text that is not blank: where it starts, and its number counted from 1. */
interface Line {
  start: number;
  number: number;
  /** Its line end is in the text (or the text is the whole file). */
  ended: boolean;
}

/**
 * The header row the start of a file reads as, or undefined. `text` is the file's first
 * HEADER_SAMPLE_BYTES (a byte-order mark removed); `whole` says it is the whole file, so that its
 * last line counts even without a line end.
 */
export function csvHeaderOf(text: string, whole: boolean): CsvHeader | undefined {
  const lines = searchedLines(text, whole);
  if (startsWithTerminal(text, lines)) return undefined;
  for (const [index, line] of lines.entries()) {
    const found = headerAt(text, line, index === 0, whole);
    if (found !== 'none' && found !== 'open') return found;
  }
  return undefined;
}

/**
 * Whether `text`, the start of a file, already decides what csvHeaderOf and accountLineOf say of
 * its first HEADER_SAMPLE_BYTES, whatever follows: its first line is a terminal number; or each
 * line searched so far is no header row (not CSV, not column names, or a record below it of
 * another shape) until one is, with every record compared there; and all the lines searched are
 * there. Reading can stop there, and calls start while a pipe is still written.
 */
export function headerDecided(text: string): boolean {
  const lines = searchedLines(text, false);
  if (startsWithTerminal(text, lines)) return true;
  for (const [index, line] of lines.entries()) {
    const found = headerAt(text, line, index === 0, false);
    if (found === 'open') return false;
    if (found !== 'none') return true;
  }
  return lines.length === LINES_SEARCHED;
}

/**
 * The header row on `line` with the first separator that makes one, `none`, or `open` when the
 * rest of the file may still decide (records not all there yet).
 */
function headerAt(
  text: string,
  line: Line,
  first: boolean,
  whole: boolean,
): CsvHeader | 'none' | 'open' {
  for (const separator of SEPARATORS) {
    // The line alone first: most lines are no header row, and the records below need no reading.
    const head = csvRecords(text, separator, 1, whole, line.start);
    if (!head) continue;
    if (head.length === 0) {
      if (whole) continue;
      return 'open';
    }
    const columns = withoutTrailingEmpty(head[0]!.map((field) => field.trim()));
    if (!looksLikeHeader(columns)) continue;
    const records = csvRecords(text, separator, 1 + RECORDS_COMPARED, whole, line.start);
    if (!records) continue;
    const rows = records.slice(1);
    const table = tableUnder(columns, rows);
    if (!table) continue;
    if (!whole && records.length < 1 + RECORDS_COMPARED) return 'open';
    // Below a heading, a header row has a record under it: a last line alone proves little.
    if (!first && table.length === 0) continue;
    if (!numbersBelowText(columns, table) && columns.filter(isUsualColumnName).length < 2) continue;
    return { separator, columns, suggested: suggestedColumn(columns, table), line: line.number };
  }
  return 'none';
}

/**
 * `Account Number: 0123456789012345`, `A/C No.:,0123-4567-8901`, `खाता नं: …`: a label of an
 * account, a colon, then a number. (खाता written as \u escapes: the build keeps dist/cli.cjs
 * ASCII.)
 */
const ACCOUNT_LINE =
  /^["'\s]*(?:account|acct|a\/c|\u0916\u093e\u0924\u093e)[^:\r\n]{0,25}:["'\s,;|]*\d[\d\s-]{4,}\d/iu;

/**
 * The number of the first line among those searched that gives a bank account's number, or
 * undefined: a statement, whatever follows. `text` and `whole` as for csvHeaderOf.
 */
export function accountLineOf(text: string, whole: boolean): number | undefined {
  const lines = searchedLines(text, whole);
  if (startsWithTerminal(text, lines)) return undefined;
  return lines.find(
    (line) => line.ended && ACCOUNT_LINE.test(text.slice(line.start, lineEnd(text, line.start))),
  )?.number;
}

/**
 * The first LINES_SEARCHED lines of the text that are not blank (spaces and tabs alone are blank,
 * as for lookups).
 */
function searchedLines(text: string, whole: boolean): Line[] {
  const lines: Line[] = [];
  let number = 1;
  for (let start = 0; start < text.length && lines.length < LINES_SEARCHED; number++) {
    const end = lineEnd(text, start);
    if (/[^ \t]/.test(text.slice(start, end)))
      lines.push({ start, number, ended: end < text.length || whole });
    if (end >= text.length) break;
    start = end + (text[end] === '\r' && text[end + 1] === '\n' ? 2 : 1);
  }
  return lines;
}

/** Where the line starting at `start` ends: its CR or LF, or the end of the text. */
function lineEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return end;
}

/** The first line (not blank, whole) is a terminal number: the file is a list of lookups. */
function startsWithTerminal(text: string, lines: readonly Line[]): boolean {
  const first = lines[0];
  return (
    first !== undefined &&
    first.ended &&
    /^\d{16,}$/.test(text.slice(first.start, lineEnd(text, first.start)).trim())
  );
}

/**
 * The records of the table under a header row: each of as many fields as the header, or fewer
 * with the missing ones at the end, 2 at least; after two such records, the rest may be lines of
 * one field (a statement's footer: `*** computer generated statement ***`). Undefined when the
 * records are of another shape.
 */
function tableUnder(
  columns: readonly string[],
  rows: readonly string[][],
): readonly string[][] | undefined {
  const fits = (row: readonly string[]) =>
    withoutTrailingEmpty(row).length <= columns.length && row.length >= 2;
  let end = 0;
  while (end < rows.length && fits(rows[end]!)) end++;
  if (end === rows.length) return rows;
  return end >= 2 && rows.slice(end).every((row) => withoutTrailingEmpty(row).length <= 1)
    ? rows.slice(0, end)
    : undefined;
}

/**
 * Where --column finds its column: the header row holding it, the separator that splits it so, and
 * the lines above it.
 */
export interface ColumnRow {
  separator: Separator;
  /** Where the header row starts in the text. */
  start: number;
  /** Its line, counted from 1; the lines before it (a bank's heading) are skipped. */
  line: number;
}

/**
 * The first of the lines searched that holds a field equal to `column` (trimmed), with the
 * separator that splits it into the most fields; undefined when none does. `text` and `whole` as
 * for csvHeaderOf.
 */
export function columnRowOf(text: string, column: string, whole: boolean): ColumnRow | undefined {
  for (const line of searchedLines(text, whole)) {
    let best: { separator: Separator; fields: number } | undefined;
    for (const separator of SEPARATORS) {
      const fields = csvRecords(text, separator, 1, whole, line.start)?.[0];
      if (fields?.some((field) => field.trim() === column) && fields.length > (best?.fields ?? 0))
        best = { separator, fields: fields.length };
    }
    if (best) return { separator: best.separator, start: line.start, line: line.number };
  }
  return undefined;
}

/**
 * Whether `text`, the start of a file, already decides what columnRowOf says: a row with the column
 * found, every line searched there, or one still open.
 */
export function columnRowDecided(text: string, column: string): boolean {
  const lines = searchedLines(text, false);
  for (const line of lines) {
    const records = SEPARATORS.map((separator) =>
      csvRecords(text, separator, 1, false, line.start),
    );
    if (records.some((found) => found?.length === 0)) return false;
    if (records.some((found) => found?.[0]?.some((field) => field.trim() === column))) return true;
  }
  return lines.length === LINES_SEARCHED;
}

/**
 * The separator that splits the first record of CSV text into the most fields: a comma when none
 * does better. `text` and `whole` as for csvHeaderOf.
 */
export function separatorOf(text: string, whole: boolean): Separator {
  let best: Separator = ',';
  let most = 1;
  for (const separator of SEPARATORS) {
    const fields = csvRecords(text, separator, 1, whole)?.[0]?.length ?? 0;
    if (fields > most) {
      best = separator;
      most = fields;
    }
  }
  return best;
}

/**
 * Up to `limit` records of CSV text with this separator: fields unquoted or in double quotes
 * (`""` a quote inside), lines ended by LF, CRLF or a lone CR, blank lines skipped. A record still
 * open at the end of the text counts only when the text is `whole`. Undefined when the text is not
 * CSV with this separator (a quoted field followed by something other than a separator or a line
 * end, or a quote never closed in a whole text). Read from `from`, the start of a line.
 */
export function csvRecords(
  text: string,
  separator: string,
  limit: number,
  whole: boolean,
  from = 0,
): string[][] | undefined {
  const records: string[][] = [];
  const length = text.length;
  let i = from;
  while (records.length < limit) {
    // Blank lines (spaces and tabs alone count as blank, as for lookups) are no records.
    let start = i;
    while (
      start < length &&
      (text[start] === ' ' || text[start] === '\t' || text[start] === '\r' || text[start] === '\n')
    ) {
      if (text[start] === '\r' || text[start] === '\n') i = start + 1;
      start++;
    }
    if (start >= length) break;
    const fields: string[] = [];
    let ended = false;
    for (;;) {
      let field = '';
      // Spaces before an opening quote do not count (`a, "b"`).
      let j = i;
      while (j < length && text[j] === ' ') j++;
      if (text[j] === '"') {
        let k = j + 1;
        for (;;) {
          const quote = text.indexOf('"', k);
          if (quote < 0) return whole ? undefined : records;
          field += text.slice(k, quote);
          if (text[quote + 1] === '"') {
            field += '"';
            k = quote + 2;
            continue;
          }
          k = quote + 1;
          break;
        }
        while (k < length && text[k] === ' ') k++;
        i = k;
        if (i < length && text[i] !== separator && text[i] !== '\r' && text[i] !== '\n')
          return undefined;
      } else {
        let k = i;
        while (k < length && text[k] !== separator && text[k] !== '\r' && text[k] !== '\n') k++;
        field = text.slice(i, k);
        i = k;
      }
      fields.push(field);
      if (i >= length) {
        // The text ends inside this record: it is whole only when the file is.
        if (!whole) return records;
        ended = true;
        break;
      }
      if (text[i] === separator) {
        i++;
        continue;
      }
      // A line end: CRLF, CR or LF.
      i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
      // A CR at the very end of a part of the file may be the first half of a CRLF: no matter, the
      // record ended.
      ended = true;
      break;
    }
    if (ended) records.push(fields);
  }
  return records;
}

function withoutTrailingEmpty(fields: readonly string[]): string[] {
  let end = fields.length;
  while (end > 0 && fields[end - 1]!.trim() === '') end--;
  return fields.slice(0, end);
}

/** Two or more fields, each a column name, at most one of them empty. */
function looksLikeHeader(columns: readonly string[]): boolean {
  const named = columns.filter((column) => column !== '');
  return named.length >= 2 && columns.length - named.length <= 1 && named.every(isColumnName);
}

/**
 * How column names look: short text with letters and no long number; or, holding a usual word of
 * column names (a joining word aside), text of at most 80 characters, numbers and all
 * (`Date (2024/25)`, `Withdrawal Amount in Nepalese Rupees (NPR)`).
 */
function isColumnName(field: string): boolean {
  if (!/\p{L}/u.test(field)) return false;
  if (
    field.length <= 80 &&
    wordsOf(field).some((word) => COLUMN_WORDS.has(word) && !JOINING_WORDS.has(word))
  )
    return true;
  return field.length <= 40 && !/\d{4}/.test(field) && field.split(/\s+/).length <= 5;
}

/**
 * A column name made only of the usual words (`Txn Date`, `Withdrawal Amt (NPR)`, `Cheque No.`,
 * `Date (2024/25)`, `चेक नं`).
 */
function isUsualColumnName(field: string): boolean {
  const words = wordsOf(field);
  return words.length > 0 && words.every((word) => COLUMN_WORDS.has(word));
}

/**
 * The words of a field, lower-case: letters with their marks (Devanagari's vowel signs), `.` and
 * `/` inside a word (`a/c`, `क्र.सं`); `Cheque/Reference` is two.
 */
function wordsOf(field: string): string[] {
  const trimmed = (word: string) => word.replace(/^[./]+|[./]+$/g, '');
  return field
    .toLowerCase()
    .split(/[^\p{L}\p{M}/.]+/u)
    .map(trimmed)
    .flatMap((word) => (COLUMN_WORDS.has(word) ? [word] : word.split('/').map(trimmed)))
    .filter(Boolean);
}

/**
 * A number as statements write amounts (`1,20,000.50`, `-45`, `(120.00)`), or a date (`2026-10-01`,
 * `01/10/2026`, `01-Oct-2026`, with a time).
 */
const NUMBER_OR_DATE =
  /^(?:[-+(]?[\d,]*\d(?:\.\d+)?\)?(?:\s*(?:dr|cr))?|\d{1,4}[-/. ](?:\d{1,2}|\p{L}{3,9})[-/. ]\d{1,4}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)$/iu;

/**
 * Some column has text in the header and numbers or dates in every cell below it that is not empty.
 */
function numbersBelowText(columns: readonly string[], rows: readonly string[][]): boolean {
  return columns.some((column, index) => {
    if (column === '' || /\d/.test(column)) return false;
    const cells = rows.map((row) => (row[index] ?? '').trim()).filter((cell) => cell !== '');
    return cells.length > 0 && cells.every((cell) => NUMBER_OR_DATE.test(cell));
  });
}

/**
 * The column whose cells below are the longest text (a narration), else the first usual text column
 * name, else the first.
 */
function suggestedColumn(columns: readonly string[], rows: readonly string[][]): string {
  let best: string | undefined;
  let longest = 0;
  columns.forEach((column, index) => {
    if (column === '') return;
    const cells = rows
      .map((row) => (row[index] ?? '').trim())
      .filter((cell) => /\p{L}/u.test(cell) && !NUMBER_OR_DATE.test(cell));
    const total = cells.reduce((sum, cell) => sum + cell.length, 0);
    if (total > longest) {
      best = column;
      longest = total;
    }
  });
  return (
    best ??
    columns.find((column) =>
      /narrat|descri|particular|detail|remark|merchant|name/i.test(column),
    ) ??
    columns.find((column) => column !== '')!
  );
}
