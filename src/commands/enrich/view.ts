// The reply of POST /v1/enrich: `{count, transactions[], signals, monthly_summary, categories}`.
// Its transactions (each with `category` and `confidence` added) are the table and the records of
// -o csv and -o ndjson (like a report's, with what they nest in dotted CSV columns); everything
// else follows as the generic view shows it, amounts as money.
import { readReply } from '../../api/replies/schema.js';
import { EnrichRecords, EnrichReply } from '../../api/replies/transactions.js';
import type { ReplyReader } from '../../app/present.js';
import { otherFields } from '../../core/json/values.js';
import { fraction } from '../../core/output/cells.js';
import { formatMoney } from '../../core/output/format.js';
import { cellText, withExtraColumns, withRest } from '../../core/output/generic.js';
import type { Column, ListView, SectionsView } from '../../core/output/view.js';
import { type ReplyReading } from '../../service/reading.js';
import { moneyOf } from '../money.js';

const KNOWN_IN_TRANSACTION = [
  'date',
  'description',
  'credit',
  'debit',
  'balance',
  'category',
  'confidence',
];

/**
 * The list the command walks: missing, or no list, it is exit 10 (docs/reference/output.md,
 * "Reading replies").
 */
function transactionsOf(body: unknown, reading: ReplyReading) {
  // Read as documented for the walk and the --debug notes; the records are the items as received.
  readReply(reading, EnrichReply, body);
  return readReply(reading, EnrichRecords, body).transactions;
}

export function enrichView(body: unknown, reading: ReplyReading): SectionsView {
  const reply = readReply(reading, EnrichReply, body);
  const received = readReply(reading, EnrichRecords, body).transactions;
  const rows = reply.transactions.map((t, i) => ({
    date: t?.date,
    description: t?.description,
    // Numbers as received (a pipe shows them so), formatted for people.
    credit: t?.credit,
    debit: t?.debit,
    balance: t?.balance,
    category: t?.category,
    confidence: t?.confidence,
    rest: otherFields(received[i], KNOWN_IN_TRANSACTION),
  }));
  type Row = (typeof rows)[number];
  // No currency is documented for the transactions of a file: one the reply names heads the
  // amounts.
  const money = moneyOf(body);
  const amount = (key: 'credit' | 'debit' | 'balance', header: string): Column<Row> => ({
    key,
    header,
    value: (r) => cellText(r[key]),
    display: (r) => formatMoney(r[key]) ?? '',
    formatsValue: true,
    align: 'right',
    keep: true,
    ...(money.currency && { currency: money.currency }),
  });
  const columns: Column<Row>[] = [
    { key: 'date', header: 'DATE', value: (r) => r.date, keep: true },
    { key: 'description', header: 'DESCRIPTION', value: (r) => r.description, flex: true },
    amount('credit', 'CREDIT'),
    amount('debit', 'DEBIT'),
    amount('balance', 'BALANCE'),
    // A terminal shows a transaction's date, description and amounts, as `reports transactions`
    // (docs/reference/output.md, "Tables"); -o wide the rest.
    { key: 'category', header: 'CATEGORY', value: (r) => r.category, show: 'wide' },
    {
      key: 'confidence',
      header: 'CONFIDENCE',
      value: (r) => cellText(r.confidence),
      // A confidence from 0 to 1 as a percentage (0.95 → 95%), as every view shows one.
      display: (r, paint) => fraction(r.confidence, paint),
      formatsValue: true,
      align: 'right',
      keep: true,
      show: 'wide',
    },
  ];
  const count = reply.count ?? rows.length;
  const list: ListView<Row> = {
    kind: 'list',
    rows,
    columns,
    empty: 'The reply holds no transactions.',
  };
  return withRest(
    withExtraColumns(list, (r) => r.rest, money, 'wide'),
    otherFields(body, ['transactions', 'count']),
    {
      heading: `Transactions (${count})`,
      money,
    },
  );
}

export function enrichReader(what: string): ReplyReader {
  return { what, records: transactionsOf, fields: KNOWN_IN_TRANSACTION, view: enrichView };
}
