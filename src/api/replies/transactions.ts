// The transaction lists, as documented: GET /v1/reports/{id}/transactions is
// `{count, transactions[]}`, its items of either documented shape (date, description, debit,
// credit, balance … or the newer transaction_id, name, amount, merchant_name …), read by
// reports/transactions.ts; POST /v1/enrich is `{count, transactions[]}` whose items add
// `category` and `confidence`. The `transactions` list is what the commands walk: required.
import { currencies } from './reports.js';
import {
  decimal,
  list,
  listAsReceived,
  notObject,
  number,
  object,
  record,
  text,
  undocumented,
} from './schema.js';

/** The list alone: the records of -o csv and -o ndjson. */
export const TransactionListReply = record({ transactions: listAsReceived() });

/** What a transaction's row reads beside its columns: the newer shape's currency and category. */
export const TransactionItem = object({
  iso_currency_code: text(),
  personal_finance_category: object({ primary: notObject() }),
});

export const TransactionsReply = record({
  transactions: listAsReceived(),
  count: number(),
  ...currencies(),
});

export const EnrichReply = record({
  transactions: list(
    object({
      date: text(),
      description: text(),
      balance: decimal(),
      category: text(),
      confidence: decimal(),
      // `credit` or `debit`, as sent (documented as either): neither noted, so that no item is
      // noted for lacking the other.
      credit: undocumented(decimal()),
      debit: undocumented(decimal()),
    }),
  ),
  count: number(),
});

/** The enriched list as received: the records of -o csv and -o ndjson. */
export const EnrichRecords = record({ transactions: listAsReceived() });
