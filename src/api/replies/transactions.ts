// The transaction lists, as documented: GET /v1/reports/{id}/transactions is
// `{count, transactions[]}`, its items of either documented shape (date, description, debit,
// credit, balance … or the newer transaction_id, name, amount, merchant_name …), read by
// reports/transactions.ts; POST /v1/enrich is `{count, transactions[]}` whose items add
// `category` and `confidence`. The `transactions` list is what the commands walk: required.
import { field, list, loose, record } from './schema.js';

/** The list alone: the records of -o csv and -o ndjson. */
export const TransactionListReply = record({ transactions: list(loose({})) });

export const TransactionsReply = record({ transactions: list(loose({})), count: field() });

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
