// `svc reports transactions ID [--category C] [--merchant-category M] [--direction credit|debit]
// [--since DATE] [--until DATE] [--limit N]`: the transactions of a report, filtered by the
// service. The listing is documented as {count, transactions:[{id, date, description, debit,
// credit, balance, category, confidence}]}; a report's transactions also come in a newer shape
// ({transaction_id, date, name, amount, merchant_name, personal_finance_category …}), and both are
// read. The list is what the command walks: without it the reply is exit 10, whatever the format.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { readPart, readReply, received } from '../../api/replies/schema.js';
import {
  TransactionItem,
  TransactionListReply,
  TransactionsReply,
} from '../../api/replies/transactions.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { type BsCalendar, loadBsCalendar } from '../../core/calendar/calendar.js';
import { type JsonRecord, otherFields } from '../../core/json/values.js';
import { amount, ItemFields, moneyColumn } from '../../core/output/cells.js';
import { formatCount } from '../../core/output/format.js';
import { cellText, listWithRest, withExtraColumns } from '../../core/output/generic.js';
import type { Column, ListView, SectionsView } from '../../core/output/view.js';
import { type ReplyReading } from '../../service/reading.js';
import { holdsMoney } from '../money.js';
import {
  type TransactionFilters,
  transactionFilters,
  type TransactionOptions,
} from './lending-input.js';
import { currencyOf, type ListPart, titled } from './lending-view.js';

export async function listTransactions(
  ctx: Context,
  id: string,
  options: TransactionOptions,
): Promise<void> {
  const call = target(ENDPOINTS.transactions, { report_id: id });
  const calendar = await ctx.config.calendar();
  const fiscal = options.fy === undefined ? undefined : (calendar ?? (await loadBsCalendar()));
  const filters = transactionFilters(options, { calendar, fiscal });
  const reply = await (await ctx.client()).request({ ...call, query: filters });
  await present(ctx, reply, {
    what: call.what,
    records: transactionsOf,
    fields: TRANSACTION_FIELDS,
    view: (body, reading) => transactionsView(body, reading, { id, filters, calendar }),
  });
}

/** The documented list: `transactions` of the reply object. */
export function transactionsOf(body: unknown, reading: ReplyReading): unknown[] {
  return readReply(reading, TransactionListReply, body).transactions;
}

/**
 * The fields of a transaction the listing documents, in their order: the first columns of its CSV.
 */
export const TRANSACTION_FIELDS = [
  'id',
  'date',
  'description',
  'debit',
  'credit',
  'balance',
  'category',
  'confidence',
];

/**
 * The fields of a report's transactions, of either documented shape, in one order that reads as
 * each shape's own (a field of one shape beside its like in the other): the first columns of the
 * CSV of `reports get`.
 */
export const REPORT_TRANSACTION_FIELDS = [
  'transaction_id',
  'id',
  'date',
  'description',
  'name',
  'debit',
  'credit',
  'amount',
  'iso_currency_code',
  'balance',
  'category',
  'personal_finance_category',
  'merchant',
  'merchant_name',
  'merchantTerminal',
  'payment_terminal_id',
  'mcc',
  'merchantCategory',
  'counterparties',
  'payment_channel',
  'pending',
  'confidence',
];

/** One transaction of either shape, its raw values by meaning, and the fields no column shows. */
export interface TransactionRow {
  /**
   * The newer shape's currency of the transaction (`iso_currency_code`), which stays a column of
   * its own.
   */
  currency?: string;
  date: unknown;
  description: unknown;
  debit: unknown;
  credit: unknown;
  /**
   * The newer shape's single amount; its sign convention is not documented, so it is shown as
   * received.
   */
  amount: unknown;
  balance: unknown;
  category: unknown;
  merchant: unknown;
  /** `id` (older shape) or `transaction_id` (newer): one column for both. */
  id: unknown;
  rest: JsonRecord;
}

export function transactionRow(item: unknown): TransactionRow {
  const f = new ItemFields(item);
  const row = {
    date: f.take('date'),
    description: f.take('description', 'name'),
    debit: f.take('debit'),
    credit: f.take('credit'),
    amount: f.take('amount'),
    balance: f.take('balance'),
    category: f.take('category'),
    merchant: f.take('merchant', 'merchant_name'),
    id: f.take('id', 'transaction_id'),
    currency: undefined as string | undefined,
  };
  const rest = f.rest();
  const typed = readPart(TransactionItem, item);
  row.currency = typed?.iso_currency_code;
  // The newer shape's category is {primary, detailed}: the primary one fills the column, the rest
  // of it keeps a column of its own (`personal_finance_category.detailed`).
  const pfc = typed?.personal_finance_category;
  if (row.category === undefined && pfc?.primary !== undefined) {
    row.category = pfc.primary;
    const left = otherFields(received(pfc), ['primary']);
    if (Object.keys(left).length) rest.personal_finance_category = left;
    else delete rest.personal_finance_category;
  }
  return { ...row, rest };
}

const has = (rows: readonly TransactionRow[], field: keyof TransactionRow) =>
  rows.some((r) => r[field] !== undefined);

/**
 * A view's own list of transactions (`income_transactions`, …) as a part of it, headed `heading`.
 */
export function transactionsPart(key: string, heading: string, items: unknown): ListPart {
  return {
    key,
    heading,
    items,
    table: (list, currency) => transactionsTable(list, `No ${heading.toLowerCase()}.`, currency),
  };
}

/**
 * Transactions as a table: date, description, debit, credit, balance, category, and the merchant
 * and the id where any has one; the newer shape's amount in a column of its own; every other field
 * after. A terminal shows date, description, the amounts and balance (docs/reference/output.md,
 * "Tables"); -o wide and a pipe every column. A column reads the newer shape's name of its field
 * too (`name` for `description`), and --columns takes either.
 */
export function transactionsTable(
  items: readonly unknown[],
  empty: string,
  currency = 'NPR',
): ListView<TransactionRow> {
  const rows = items.map(transactionRow);
  // The newer shape names each transaction's currency: one they all share heads the columns;
  // amounts in several currencies each name their own.
  const codes = new Set(
    rows.map((r) => r.currency?.trim()).filter((code): code is string => !!code),
  );
  const mixed = codes.size > 1;
  const shared = codes.size === 1 ? [...codes][0]! : currency;
  const money = (
    key: string,
    header: string,
    field: 'debit' | 'credit' | 'amount' | 'balance',
  ): Column<TransactionRow> =>
    mixed
      ? {
          key,
          header,
          value: (r) => cellText(r[field]),
          display: (r, paint) => amount(r.currency)(r[field], paint),
          formatsValue: true,
          align: 'right',
          keep: true,
        }
      : moneyColumn(key, header, (r) => r[field], shared);
  const text = (
    key: string,
    header: string,
    field: 'date' | 'description' | 'category' | 'merchant' | 'id',
    fit: Partial<Column<TransactionRow>> = {},
  ): Column<TransactionRow> => ({
    key,
    header,
    value: (r) => cellText(r[field]),
    ...fit,
  });
  // Debit and credit are the documented layout: they go only when every row has the newer amount
  // instead.
  const debitCredit = !has(rows, 'amount') || has(rows, 'debit') || has(rows, 'credit');
  const columns: Column<TransactionRow>[] = [
    text('date', 'DATE', 'date', { keep: true }),
    text('description', 'DESCRIPTION', 'description', { flex: true, also: ['name'] }),
    ...(debitCredit ? [money('debit', 'DEBIT', 'debit'), money('credit', 'CREDIT', 'credit')] : []),
    ...(has(rows, 'amount') ? [money('amount', 'AMOUNT', 'amount')] : []),
    money('balance', 'BALANCE', 'balance'),
    text('category', 'CATEGORY', 'category', {
      show: 'wide',
      also: ['personal_finance_category.primary'],
    }),
    ...(has(rows, 'merchant')
      ? [
          text('merchant', 'MERCHANT', 'merchant', {
            flex: true,
            show: 'wide',
            also: ['merchant_name'],
          }),
        ]
      : []),
    ...(has(rows, 'id')
      ? [text('id', 'ID', 'id', { keep: true, show: 'wide', also: ['transaction_id'] })]
      : []),
  ];
  return withExtraColumns<TransactionRow>(
    { kind: 'list', rows, columns, empty },
    (r) => r.rest,
    { holdsMoney },
    'wide',
  );
}

/** The filters in force, as people read them: `category salary, since 2026-01-01, limit 100`. */
export function filtersText(filters: TransactionFilters, calendar?: BsCalendar): string {
  // With the BS calendar, the dates as given (the query holds their AD dates).
  const day = (ad: string) => (calendar ? `${calendar.cell(ad, ' ') ?? ad} BS` : ad);
  const parts = [
    filters.category !== undefined && `category ${filters.category}`,
    filters.merchant_category !== undefined && `merchant category ${filters.merchant_category}`,
    filters.direction !== undefined && `${filters.direction}s only`,
    filters.since !== undefined && `since ${day(filters.since)}`,
    filters.until !== undefined && `until ${day(filters.until)}`,
    filters.limit !== undefined && `limit ${filters.limit}`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.length
    ? `Filters: ${parts.join(', ')}.`
    : 'No filters (the service returns at most 500 unless --limit says otherwise).';
}

/** `12 transactions.`; when the reply's count differs from its list, both. */
export function countText(shown: number, counted: number | undefined): string {
  const noun = (n: number) => `${formatCount(n)} transaction${n === 1 ? '' : 's'}`;
  if (counted === undefined || counted === shown) return `${noun(shown)}.`;
  return `${noun(shown)} shown; the reply counts ${formatCount(counted)}.`;
}

export function transactionsView(
  body: unknown,
  reading: ReplyReading,
  frame: { id?: string; filters?: TransactionFilters; calendar?: BsCalendar } = {},
): SectionsView {
  const reply = readReply(reading, TransactionsReply, body);
  const items: unknown[] = reply.transactions;
  const counted = reply.count;
  const filtered =
    frame.filters !== undefined && Object.keys(frame.filters).some((k) => k !== 'limit');
  const table = transactionsTable(
    items,
    filtered ? 'No transactions match these filters.' : 'The report has no transactions.',
    currencyOf(reply),
  );
  // A count that is no number is not the documented one: it is shown with the rest.
  const known = counted === undefined ? ['transactions'] : ['transactions', 'count'];
  // The count and the filters go under the table on a terminal; a pipe stays one header line and
  // one line per transaction, and hears on stderr of a count that differs from the list.
  const count = countText(items.length, counted);
  const hints = [count, ...(frame.filters ? [filtersText(frame.filters, frame.calendar)] : [])];
  const cut = counted !== undefined && counted !== items.length;
  return listWithRest(table, otherFields(body, known), {
    title: titled('Transactions', frame.id),
    hints,
    ...(cut && { aside: [count] }),
  });
}
