// A statement's transactions in order, with ids and the running balance.
import type { Random } from './random.js';
import { signed, type Transaction } from './transaction.js';

/** A transaction before the statement orders it and runs the balance. */
export type Draft = Omit<Transaction, 'id' | 'balance'>;

export interface Ledger {
  opening_balance: number;
  transactions: Transaction[];
}

/**
 * Orders the drafts by date (credits first within a day, else in a seeded order) and runs the
 * balance from `openingBalance`; without one, the opening balance keeps the lowest point of the
 * period a little above zero.
 */
export function ledger(drafts: readonly Draft[], random: Random, openingBalance?: number): Ledger {
  const ordered = drafts
    .map((draft) => ({ draft, rank: random.next() }))
    .sort(
      (a, b) =>
        a.draft.date.localeCompare(b.draft.date) ||
        Number(b.draft.direction === 'credit') - Number(a.draft.direction === 'credit') ||
        a.rank - b.rank,
    )
    .map((o) => o.draft);
  // In paisa, so that a long statement does not drift by rounding.
  const steps = ordered.map((d) => Math.round(signed(d) * 100));
  let lowest = 0;
  steps.reduce((sum, step) => {
    lowest = Math.min(lowest, sum + step);
    return sum + step;
  }, 0);
  let balance =
    openingBalance !== undefined
      ? Math.round(openingBalance * 100)
      : -lowest + random.int(2_000, 30_000) * 100;
  const opening = balance / 100;
  const width = Math.max(4, String(ordered.length).length);
  const transactions = ordered.map((draft, i) => {
    balance += steps[i]!;
    return { id: `txn_${String(i + 1).padStart(width, '0')}`, ...draft, balance: balance / 100 };
  });
  return { opening_balance: opening, transactions };
}
