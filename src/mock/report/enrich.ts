// POST /v1/enrich: a caller's own transactions categorised by the mock's categoriser (the one the
// sandbox's override_transactions use), and summed up the way a report is. The documented reply is
// `{count, transactions[] (each with category and confidence added), signals, monthly_summary,
// categories}`; the last three hold what a report's own do.
import { categorise } from './categorise.js';
import { categories, monthlySummary, signals } from './summaries.js';
import { money, signed, type Transaction } from './transaction.js';

/**
 * One transaction as the caller sent it: `credit` or `debit` (the other absent, null or 0),
 * `balance` when known.
 */
export interface EnrichInput {
  /** Everything the caller sent, given back with category and confidence added. */
  fields: Record<string, unknown>;
  date: string;
  description: string;
  direction: 'credit' | 'debit';
  amount: number;
  balance: number | undefined;
}

export function enrich(inputs: readonly EnrichInput[]) {
  const made = inputs.map((input) => ({ input, draft: categorise(input) }));
  // Summed in date order (a stable sort: same-day transactions keep the caller's order).
  const ordered = [...made].sort((a, b) => a.input.date.localeCompare(b.input.date));
  const opening = openingBalance(ordered.map((m) => m.input));
  let running = opening;
  const transactions: Transaction[] = ordered.map(({ input, draft }, i) => {
    // A missing balance is run on from the one before, so the summaries still have one.
    running = input.balance ?? money(running + signed(draft));
    return { ...draft, id: `txn_${String(i + 1).padStart(4, '0')}`, balance: running };
  });
  const dates = ordered.map((m) => m.input.date);
  const closing = transactions.at(-1)?.balance ?? opening;
  return {
    count: inputs.length,
    transactions: made.map(({ input, draft }) => ({
      ...input.fields,
      category: draft.category,
      confidence: draft.confidence,
    })),
    signals: signals(transactions, opening, closing),
    monthly_summary: monthlySummary(transactions, { from: dates[0]!, to: dates.at(-1)! }, opening),
    categories: categories(transactions),
  };
}

/** Before the first transaction: its balance less its own amount, or 0 when it has none. */
function openingBalance(ordered: readonly EnrichInput[]): number {
  const first = ordered[0];
  if (first?.balance === undefined) return 0;
  return money(first.balance - signed(first));
}
