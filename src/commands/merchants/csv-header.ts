// Whether a --file given without --column is a CSV file with a header row (a bank statement
// exported as `date,narration,amount`), which read one lookup a line would send every whole line
// as a merchant name, a billing unit for each 1000 of them. Such a file is refused before anything
// is sent; this module decides, from at most the first 64 KiB of the file.
//
// A comma alone proves nothing: a merchant name may hold one ("Bhat-Bhateni Supermarket, Pvt.
// Ltd."), and a statement's narration several ("MPAY 2222020006840462,492738040,MOB"). The first
// line reads as a header row when, for one of the separators `,` `;` or tab:
//   1. it splits (CSV quoting honoured: `"Date","Narration, full"`) into 2 or more fields, each of
//      which looks like a column name: some letters, at most 40 characters and 5 words, no run of
//      4 digits or more (a year, an amount, a terminal number); at most one field empty (an
//      index column);
//   2. the records after it (up to 20, quoted line breaks inside a field honoured) all split into
//      as many fields, or fewer with the missing ones at the end (empty trailing cells); and
//   3. something shows it is a header rather than a first lookup: a column whose cells below are
//      all numbers or dates where the header has text (a statement's date or amount column), or
//      two fields or more that are usual column names (`Date`, `Txn Date`, `Narration`,
//      `Withdrawal Amt`, `Merchant`, ...; every word of the field in COLUMN_WORDS below).
// A file of one line is refused only by the usual names (3), as it has no records to compare.
// So a names file whose first name holds a comma is read as names: the lines after it hold no
// comma at the same place; and a file of "name, branch" lines too, unless its branches are numbers.
// A file wrongly taken for CSV can still be read one lookup a line with --no-header.
//
// Separators: a comma (the CSV of most exports), a semicolon (spreadsheets set to a decimal comma)
// and a tab (TSV). --column reads the file with the separator that splits its header row into the
// most fields (separatorOf), so a refusal's advice works for all three.

/** The bytes of a file's start the decision reads; always this many (or the whole file), so it is the same however the input comes in chunks. */
export const HEADER_SAMPLE_BYTES = 64 * 1024;
/** Records after the first line compared with it. */
const RECORDS_COMPARED = 20;
const SEPARATORS = [',', ';', '\t'] as const;
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
]);

export interface CsvHeader {
  separator: Separator;
  /** The header's fields, trimmed. */
  columns: string[];
  /** The column a person most likely wants: the one with the longest text below it. */
  suggested: string;
}

/**
 * The header row the start of a file reads as, or undefined. `text` is the file's first
 * HEADER_SAMPLE_BYTES (a byte-order mark removed); `whole` says it is the whole file, so that its
 * last line counts even without a line end.
 */
export function csvHeaderOf(text: string, whole: boolean): CsvHeader | undefined {
  for (const separator of SEPARATORS) {
    const records = csvRecords(text, separator, 1 + RECORDS_COMPARED, whole);
    if (!records || records.length === 0) continue;
    const [first, ...rows] = records as [string[], ...string[][]];
    const columns = withoutTrailingEmpty(first.map((field) => field.trim()));
    if (!looksLikeHeader(columns)) continue;
    if (!rows.every((row) => fitsUnder(columns, row))) continue;
    if (!numbersBelowText(columns, rows) && columns.filter(isUsualColumnName).length < 2) continue;
    return { separator, columns, suggested: suggestedColumn(columns, rows) };
  }
  return undefined;
}

/**
 * Whether `text`, the start of a file, already decides what csvHeaderOf says of its first
 * HEADER_SAMPLE_BYTES, whatever follows: for each separator, the first line is no header (not CSV,
 * not column names, or a record below it of another shape), or every record compared is there.
 * Reading can stop there: a stream of terminal numbers is decided by its first line, and calls
 * start while a pipe is still written.
 */
export function headerDecided(text: string): boolean {
  return SEPARATORS.every((separator) => {
    const records = csvRecords(text, separator, 1 + RECORDS_COMPARED, false);
    if (!records) return true;
    if (records.length === 0) return false;
    const [first, ...rows] = records as [string[], ...string[][]];
    const columns = withoutTrailingEmpty(first.map((field) => field.trim()));
    return !looksLikeHeader(columns) || !rows.every((row) => fitsUnder(columns, row)) || records.length === 1 + RECORDS_COMPARED;
  });
}

/** A record of as many fields as the header, or fewer with the missing ones at the end; 2 at least. */
function fitsUnder(columns: readonly string[], row: readonly string[]): boolean {
  return withoutTrailingEmpty([...row]).length <= columns.length && row.length >= 2;
}

/** Whether the first record of `text` is whole with every separator: separatorOf can tell. */
export function headerRowRead(text: string): boolean {
  return SEPARATORS.every((separator) => csvRecords(text, separator, 1, false)?.length !== 0);
}

/**
 * The separator that splits the first record of CSV text (the header row) into the most fields:
 * a comma when none does better. `text` and `whole` as for csvHeaderOf.
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
 * end, or a quote never closed in a whole text).
 */
export function csvRecords(text: string, separator: string, limit: number, whole: boolean): string[][] | undefined {
  const records: string[][] = [];
  const length = text.length;
  let i = 0;
  while (records.length < limit) {
    // Blank lines (spaces and tabs alone count as blank, as for lookups) are no records.
    let start = i;
    while (start < length && (text[start] === ' ' || text[start] === '\t' || text[start] === '\r' || text[start] === '\n')) {
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
        if (i < length && text[i] !== separator && text[i] !== '\r' && text[i] !== '\n') return undefined;
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
      // A CR at the very end of a part of the file may be the first half of a CRLF: no matter, the record ended.
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

/** Short text with letters and no long number: how column names look. */
function isColumnName(field: string): boolean {
  return field.length <= 40 && /\p{L}/u.test(field) && !/\d{4}/.test(field) && field.split(/\s+/).length <= 5;
}

/** A column name made only of the usual words (`Txn Date`, `Withdrawal Amt (NPR)`, `Cheque No.`). */
function isUsualColumnName(field: string): boolean {
  const words = field
    .toLowerCase()
    .split(/[^\p{L}/.]+/u)
    .map((word) => word.replace(/^[./]+|[./]+$/g, ''))
    .filter(Boolean);
  return words.length > 0 && words.every((word) => COLUMN_WORDS.has(word));
}

/** A number as statements write amounts (`1,20,000.50`, `-45`, `(120.00)`), or a date (`2026-10-01`, `01/10/2026`, `01-Oct-2026`, with a time). */
const NUMBER_OR_DATE = /^(?:[-+(]?[\d,]*\d(?:\.\d+)?\)?(?:\s*(?:dr|cr))?|\d{1,4}[-/. ](?:\d{1,2}|\p{L}{3,9})[-/. ]\d{1,4}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)$/iu;

/** Some column has text in the header and numbers or dates in every cell below it that is not empty. */
function numbersBelowText(columns: readonly string[], rows: readonly string[][]): boolean {
  return columns.some((column, index) => {
    if (column === '' || /\d/.test(column)) return false;
    const cells = rows.map((row) => (row[index] ?? '').trim()).filter((cell) => cell !== '');
    return cells.length > 0 && cells.every((cell) => NUMBER_OR_DATE.test(cell));
  });
}

/** The column whose cells below are the longest text (a narration), else the first usual text column name, else the first. */
function suggestedColumn(columns: readonly string[], rows: readonly string[][]): string {
  let best: string | undefined;
  let longest = 0;
  columns.forEach((column, index) => {
    if (column === '') return;
    const cells = rows.map((row) => (row[index] ?? '').trim()).filter((cell) => /\p{L}/u.test(cell) && !NUMBER_OR_DATE.test(cell));
    const total = cells.reduce((sum, cell) => sum + cell.length, 0);
    if (total > longest) {
      best = column;
      longest = total;
    }
  });
  return best ?? columns.find((column) => /narrat|descri|particular|detail|remark|merchant|name/i.test(column)) ?? columns.find((column) => column !== '')!;
}
