// The transactions `svc enrich --file` sends, read from the file's text: JSON (a list of
// transactions, or an object holding `transactions`) or CSV with a header row naming the columns
// date, description, credit, debit and balance. Each transaction is checked before any request;
// the first bad one is a usage error (exit 2) naming its CSV line or its JSON index. Pure: text
// in, transactions out; enrich.ts reads the file.
import { CsvError, parse } from 'csv-parse/sync';

import { UsageError } from '../../core/errors.js';
import { jsonType } from '../../core/json/values.js';
import { oneLine } from '../../core/output/format.js';
import { isCalendarDate } from '../args.js';

/** The most transactions one call takes (the service's documentation, POST /v1/enrich). */
export const MAX_TRANSACTIONS = 5000;

/** The CSV columns, in the order the help names them. */
export const CSV_COLUMNS = ['date', 'description', 'credit', 'debit', 'balance'] as const;

/**
 * One transaction as sent: `credit` or `debit`, never both; other JSON fields are kept as given.
 */
export interface EnrichTransaction {
  date: string;
  description: string;
  credit?: number;
  debit?: number;
  balance: number;
  [field: string]: unknown;
}

export type InputForm = 'json' | 'csv';

/**
 * JSON when the text opens with `[` or `{` (after a byte-order mark and white space); CSV
 * otherwise.
 */
export function inputForm(text: string): InputForm {
  return /^\uFEFF?\s*[[{]/.test(text) ? 'json' : 'csv';
}

/**
 * The transactions of a file's text, each checked; `source` names the file in messages (`stdin`
 * for `-`). Throws a UsageError naming the first bad transaction.
 */
export function parseTransactions(text: string, source: string): EnrichTransaction[] {
  return inputForm(text) === 'json' ? fromJson(text, source) : fromCsv(text, source);
}

// ---------------------------------------------------------------------------------------------
// JSON

function fromJson(text: string, source: string): EnrichTransaction[] {
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`cannot read ${source} as JSON: ${oneLine((error as Error).message)}`);
  }
  let items: unknown;
  if (Array.isArray(document)) items = document;
  else if (isObject(document) && Object.hasOwn(document, 'transactions'))
    items = document.transactions;
  else
    throw new UsageError(
      `${source}: the JSON is neither a list of transactions nor an object holding "transactions"`,
    );
  if (!Array.isArray(items))
    throw new UsageError(
      `${source}: "transactions" should be a list, but it is ${jsonType(items)}`,
    );
  checkCount(items.length, source);
  return items.map((item, index) => {
    const where = `${source}, index ${index}`;
    if (!isObject(item))
      throw new UsageError(`${where}: a transaction is an object, not ${jsonType(item)}`);
    return checked(where, item, {
      date: jsonText(where, item, 'date'),
      description: jsonText(where, item, 'description'),
      credit: jsonNumber(where, item, 'credit'),
      debit: jsonNumber(where, item, 'debit'),
      balance: jsonNumber(where, item, 'balance'),
    });
  });
}

/** A text field: absent or null is undefined; anything but a text is refused. */
function jsonText(where: string, item: Record<string, unknown>, field: string): string | undefined {
  const value = item[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new UsageError(
      `${where}: ${field} should be a text, not ${jsonType(value)} (${shown(value)})`,
    );
  return value;
}

/** A number field: absent or null is undefined; a number written as text is refused. */
function jsonNumber(
  where: string,
  item: Record<string, unknown>,
  field: string,
): number | undefined {
  const value = item[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number')
    throw new UsageError(
      `${where}: ${field} should be a number, not ${jsonType(value)} (${shown(value)})`,
    );
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify would send as null.
  if (!Number.isFinite(value)) throw new UsageError(`${where}: ${field} is too large a number`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// CSV

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

function fromCsv(text: string, source: string): EnrichTransaction[] {
  let records: CsvRecord[];
  try {
    // Line ends made one kind first: csv-parse counts lines from the first kind it meets, and a
    // file mixing LF and CRLF would be given wrong line numbers.
    records = parse(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), {
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as unknown as CsvRecord[];
  } catch (error) {
    if (error instanceof CsvError)
      throw new UsageError(`cannot read ${source} as CSV: ${oneLine(error.message)}`);
    throw error;
  }
  const [header, ...rows] = records.filter(({ record }) => record.some((cell) => cell !== ''));
  if (!header)
    throw new UsageError(`${source} holds no transactions (give 1 to ${MAX_TRANSACTIONS})`);
  const columns = csvColumns(header.record, source);
  checkCount(rows.length, source);
  return rows.map(({ record, info }) => {
    // csv-parse gives the line a record ends on; a quoted cell may span several.
    const breaks = record.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0);
    const where = `${source}, line ${info.lines - breaks}`;
    const cell = (name: (typeof CSV_COLUMNS)[number]) => {
      const index = columns[name];
      const value = index === undefined ? undefined : record[index];
      return value === undefined || value === '' ? undefined : value;
    };
    return checked(
      where,
      {},
      {
        date: cell('date'),
        description: cell('description'),
        credit: csvNumber(where, 'credit', cell('credit')),
        debit: csvNumber(where, 'debit', cell('debit')),
        balance: csvNumber(where, 'balance', cell('balance')),
      },
    );
  });
}

/** Where each column is: date, description and balance are needed, and credit or debit or both. */
function csvColumns(
  header: readonly string[],
  source: string,
): Partial<Record<(typeof CSV_COLUMNS)[number], number>> {
  const names = header.map((name) => name.trim().toLowerCase());
  const columns: Partial<Record<(typeof CSV_COLUMNS)[number], number>> = {};
  for (const name of CSV_COLUMNS) {
    const index = names.indexOf(name);
    if (index >= 0) columns[name] = index;
  }
  const missing = (['date', 'description', 'balance'] as const)
    .filter((name) => columns[name] === undefined)
    .map((name) => `"${name}"`);
  if (columns.credit === undefined && columns.debit === undefined)
    missing.push('"credit" or "debit"');
  if (missing.length === 0) return columns;
  const has = header.map((name) => JSON.stringify(cut(oneLine(name)))).join(', ');
  throw new UsageError(
    `the header row of ${source} has no column ${missing.join(', ')} (it has ${has})`,
    [`The first line names the columns: ${CSV_COLUMNS.join(',')}.`],
  );
}

/** Amounts in CSV are plain numbers: `1250`, `1250.50`, `-300` (a balance may be negative). */
const CSV_NUMBER = /^-?\d+(\.\d+)?$/;

function csvNumber(where: string, field: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!CSV_NUMBER.test(text))
    throw new UsageError(
      `${where}: ${field} "${cut(oneLine(text))}" is not a number (write amounts as plain numbers, such as 1250.50)`,
    );
  return Number(text);
}

// ---------------------------------------------------------------------------------------------
// The rules every transaction follows, in either form

interface Fields {
  date: string | undefined;
  description: string | undefined;
  credit: number | undefined;
  debit: number | undefined;
  balance: number | undefined;
}

/** The transaction to send, or a usage error naming `where` and the first rule it breaks. */
function checked(where: string, rest: Record<string, unknown>, f: Fields): EnrichTransaction {
  const problem = (text: string) => new UsageError(`${where}: ${text}`);
  if (f.date === undefined) throw problem('the date is missing (YYYY-MM-DD)');
  if (!isCalendarDate(f.date))
    throw problem(`date "${cut(oneLine(f.date))}" is not a date of the form YYYY-MM-DD`);
  if (f.description === undefined || f.description.trim() === '')
    throw problem('the description is empty');
  for (const field of ['credit', 'debit'] as const) {
    const value = f[field];
    if (value !== undefined && !(value >= 0))
      throw problem(`${field} ${value} is negative: credit and debit are amounts of 0 or more`);
  }
  if (f.credit !== undefined && f.debit !== undefined)
    throw problem(
      'both credit and debit are given: a transaction is one or the other (leave the other empty)',
    );
  if (f.credit === undefined && f.debit === undefined)
    throw problem('neither credit nor debit is given');
  if (f.balance === undefined) throw problem('the balance is missing');
  // Other JSON fields go as given; a null credit or debit is left out, as the body has one of them.
  const others = { ...rest };
  delete others.credit;
  delete others.debit;
  return {
    ...others,
    date: f.date,
    description: f.description,
    ...(f.credit !== undefined ? { credit: f.credit } : { debit: f.debit }),
    balance: f.balance,
  };
}

function checkCount(count: number, source: string): void {
  if (count === 0)
    throw new UsageError(`${source} holds no transactions (give 1 to ${MAX_TRANSACTIONS})`);
  if (count > MAX_TRANSACTIONS) {
    throw new UsageError(
      `${source} holds ${count} transactions; enrich takes at most ${MAX_TRANSACTIONS} per call`,
      ['Split the file: each call costs one billing unit.'],
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shown(value: unknown): string {
  return cut(oneLine(JSON.stringify(value) ?? String(value)));
}

/** A value quoted in a message stays short. */
function cut(text: string): string {
  return text.length > 40 ? text.slice(0, 40) + '…' : text;
}
