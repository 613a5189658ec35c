// One transaction as the mock keeps it. The documents show two reply shapes of it (older and
// newer, see shapes.ts) and the listing of GET …/transactions; all three are drawn from this.
import type { CounterpartyType } from '../fixtures.js';

/** The documented transaction categories. */
export const CATEGORIES = [
  'salary',
  'loan_repayment',
  'utility',
  'wallet',
  'merchant_payment',
  'refund',
  'remittance',
  'cash_withdrawal',
  'transfer',
  'investment',
  'interest',
  'tax',
  'fee',
  'other',
] as const;

export type Category = (typeof CATEGORIES)[number];

export type Direction = 'credit' | 'debit';

/**
 * A shop paid at one of its QR terminals (the merchant directory of `POST /v1/merchants/resolve`).
 */
export interface MerchantRef {
  name: string;
  terminal: string;
  mcc: string;
  /** Spend category of the directory, e.g. groceries: the key of `merchant_categories`. */
  category: string;
}

export interface Transaction {
  /** txn_0001 onwards, in the order of the statement. */
  id: string;
  date: string;
  direction: Direction;
  /** Positive, two decimals. */
  amount: number;
  /** The running balance after this transaction; negative in overdraft. */
  balance: number;
  /** The raw narration as the bank prints it, e.g. `MPAY 2222020006840462,492738040,MOB`. */
  narration: string;
  counterparty: { type: CounterpartyType; name: string };
  category: Category;
  merchant: MerchantRef | null;
  channel: 'online' | 'in store' | 'other';
  /** How sure the categorisation is, 0 to 1. */
  confidence: number;
}

/** Credits positive, debits negative. */
export function signed(t: Pick<Transaction, 'direction' | 'amount'>): number {
  return t.direction === 'credit' ? t.amount : -t.amount;
}

/** Two decimals, as money is written. */
export function money(value: number): number {
  return Math.round(value * 100) / 100;
}
