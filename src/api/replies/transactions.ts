// The transaction lists, as documented: GET /v1/reports/{id}/transactions is
// `{count, transactions[]}`, its items of either documented shape (date, description, debit,
// credit, balance … or the newer transaction_id, name, amount, merchant_name …), read by
// reports/transactions.ts; POST /v1/enrich is `{count, transactions[]}` whose items add
// `category` and `confidence`. The `transactions` list is what the commands walk: required.
import { currencies } from './reports.js';
import { field, list, listAsReceived, loose, number, record } from './schema.js';

/** The list alone: the records of -o csv and -o ndjson. */
export const TransactionListReply = record({ transactions: listAsReceived() });

export const TransactionsReply = record({
  transactions: listAsReceived(),
  count: number(),
  ...currencies(),
});

export const EnrichReply = record({
  // An item has `credit` or `debit`, as sent (documented as either): neither is declared, so that no item is noted for lacking the other.
  transactions: list(
    loose({
      date: field(),
      description: field(),
      balance: field(),
      category: field(),
      confidence: field(),
    }),
  ),
  count: field(),
});
