// The full report (GET /v1/reports/{id}, a synchronous parse, a sandbox report): the statement
// block as a field list, then whatever else the report carries (monthly summary, categories,
// merchant categories, signals …) as the generic view shows it, its amounts as money. Its
// transactions are counted here; `-o csv` and `-o ndjson` write them one per line.
import type * as Reports from '../../api/replies/reports.js';
import type { Read } from '../../api/replies/schema.js';
import type { ReplyReader } from '../../app/present.js';
import { otherFields } from '../../core/json/values.js';
import { formatBoolean, formatCount, formatMoney } from '../../core/output/format.js';
import { cellText, countText, withRest } from '../../core/output/generic.js';
import type { Column, SectionsView } from '../../core/output/view.js';
import { type ReplyReading } from '../../service/reading.js';
import { moneyOf } from '../money.js';
import { bankText } from './bank-text.js';
import { paintReportStatus } from './status.js';
import { REPORT_TRANSACTION_FIELDS } from './transactions.js';

export { bankText };

/** What a report says of itself, from either documented place of each field. */
export interface ReportFacts {
  reportId?: string;
  status?: string;
  bank?: string;
  bankCode?: string;
  currency?: string;
  period?: { from?: string; to?: string };
  /** As received: a number, or whatever came in its place. */
  openingBalance?: unknown;
  closingBalance?: unknown;
  /** As received (`total_transactions`), else the number of transactions listed. */
  transactions?: unknown;
  createdAt?: string;
  dataSource?: string;
  tamperVerifiable?: boolean;
}

const KNOWN = [
  'report_id',
  'status',
  'bank_code',
  'created_at',
  'statement',
  'statement_period',
  'period',
  'data_source',
  'tamper_verifiable',
  'transactions',
];
const KNOWN_IN_STATEMENT = [
  'bank',
  'bank_code',
  'currency',
  'period',
  'statement_period',
  'opening_balance',
  'closing_balance',
  'total_transactions',
];

export function periodText(period: { from?: string; to?: string } | undefined): string {
  if (!period || (!period.from && !period.to)) return '';
  return `${period.from ?? '?'} → ${period.to ?? '?'}`;
}

type Report = Read<typeof Reports.ReportReply>;

function reportFacts(report: Report): ReportFacts {
  const statement = report?.statement;
  const transactions = report?.transactions;
  return {
    reportId: report?.report_id,
    status: report?.status,
    // A report of the list's flat shape may carry its bank's name at the top, beside bank_code.
    bank: statement?.bank ?? report?.bank,
    // The list carries bank_code at the top (documented there), the full report inside `statement`.
    bankCode: statement?.bank_code ?? report?.bank_code,
    currency: statement?.currency,
    // `period` or `statement_period` (both documented), in the statement or, in the flat shape, at
    // the top.
    period: statement?.period ?? report?.period,
    openingBalance: statement?.opening_balance,
    closingBalance: statement?.closing_balance,
    transactions:
      statement?.total_transactions ??
      (Array.isArray(transactions) ? transactions.length : undefined),
    createdAt: report?.created_at,
    dataSource: report?.data_source,
    tamperVerifiable: report?.tamper_verifiable,
  };
}

export function reportView(
  body: unknown,
  reading: ReplyReading,
  { readReply, received, unread, ReportReply }: typeof Reports,
  title?: string,
): SectionsView {
  const report = readReply(reading, ReportReply, body);
  const r = reportFacts(report);
  // A statement is kept in NPR unless it names another currency.
  const amount = (value: unknown) => formatMoney(value, r.currency ?? 'NPR') ?? cellText(value);
  const fields: Column<ReportFacts>[] = [
    { key: 'report_id', header: 'Report', value: (x) => x.reportId },
    {
      key: 'status',
      header: 'Status',
      value: (x) => x.status,
      display: (x, paint) => paintReportStatus(x.status ?? '', paint),
    },
    { key: 'bank', header: 'Bank', value: (x) => bankText(x.bank, x.bankCode) },
    { key: 'period', header: 'Period', value: (x) => periodText(x.period) },
    {
      key: 'opening_balance',
      header: 'Opening balance',
      value: (x) => cellText(x.openingBalance),
      display: (x) => amount(x.openingBalance),
      formatsValue: true,
    },
    {
      key: 'closing_balance',
      header: 'Closing balance',
      value: (x) => cellText(x.closingBalance),
      display: (x) => amount(x.closingBalance),
      formatsValue: true,
    },
    {
      key: 'transactions',
      header: 'Transactions',
      value: (x) => cellText(x.transactions),
      display: (x) => countText(x.transactions),
      formatsValue: true,
    },
    { key: 'created_at', header: 'Created', value: (x) => x.createdAt },
    { key: 'data_source', header: 'Data source', value: (x) => x.dataSource },
    {
      key: 'tamper_verifiable',
      header: 'Tamper-verifiable',
      value: (x) => formatBoolean(x.tamperVerifiable),
    },
  ];
  // A bank name at the top that the Bank field shows is not shown again.
  const known = r.bank !== undefined && r.bank === report?.bank ? [...KNOWN, 'bank'] : KNOWN;
  // The statement as received; one that is no object is shown whole.
  const statement = received(report?.statement) ?? unread(ReportReply, body, report).statement;
  const rest = {
    ...prefixed('statement', otherFields(statement, KNOWN_IN_STATEMENT)),
    ...otherFields(body, known),
  };
  const transactions = report?.transactions;
  const count = Array.isArray(transactions) ? transactions.length : 0;
  const hints = count
    ? [
        `${formatCount(count)} transactions in this reply: -o csv or -o ndjson writes them one per line.`,
      ]
    : undefined;
  return withRest({ kind: 'record', record: r, fields }, rest, {
    title,
    hints,
    money: moneyOf(body, 'NPR'),
  });
}

/** Nested leftovers keep their place in the dotted names: `statement.account_type`. */
function prefixed(name: string, fields: Record<string, unknown>): Record<string, unknown> {
  return Object.keys(fields).length ? { [name]: fields } : {};
}

/**
 * The full report as a command reads it: its transactions are its records (a report is a view:
 * their nested values, the newer shape's category and counterparties, go to dotted CSV columns).
 */
export function reportReader(what: string, title?: string): ReplyReader<typeof Reports> {
  return {
    what,
    records: (body, reading, { readReply, ReportReply }) => {
      const transactions = readReply(reading, ReportReply, body)?.transactions;
      return Array.isArray(transactions) ? transactions : undefined;
    },
    replies: () => import('../../api/replies/reports.js'),
    fields: REPORT_TRANSACTION_FIELDS,
    view: (body, reading, reports) => reportView(body, reading, reports, title),
  };
}
