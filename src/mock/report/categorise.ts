// Reading a narration the caller wrote (the sandbox's `override_transactions`): a QR terminal
// number found in the merchant directory makes a merchant payment; otherwise keywords decide the
// category. A small imitation of the service's categoriser, enough to give such reports sense.
import type { CounterpartyType } from '../fixtures.js';
import { merchantDirectory } from '../merchants/directory.js';
import type { Draft } from './ledger.js';
import { type Category, type Direction, money } from './transaction.js';

export interface WrittenTransaction {
  date: string;
  description: string;
  amount: number;
  direction: Direction;
}

/** First match wins. */
const RULES: readonly [RegExp, Category, CounterpartyType][] = [
  [/\b(SALARY|PAYROLL)\b/i, 'salary', 'institution'],
  [/\b(REMIT\w*|WESTERN UNION|MONEYGRAM)\b/i, 'remittance', 'institution'],
  [/\bINTEREST\b/i, 'interest', 'institution'],
  [/\b(EMI|LOAN)\b/i, 'loan_repayment', 'institution'],
  [/\b(ATM|CASH WDL)\b/i, 'cash_withdrawal', 'cash'],
  [/\b(REFUND|REVERSAL)\b/i, 'refund', 'merchant'],
  [/\b(ESEWA|KHALTI|IME ?PAY|WALLET)\b/i, 'wallet', 'wallet'],
  [/\b(TDS|TAX)\b/i, 'tax', 'institution'],
  [/\b(FEE|CHARGES?)\b/i, 'fee', 'institution'],
  [/\b(NEA|ELECTRICITY|KHANEPANI|TOPUP|RECHARGE|NTC|NCELL|INTERNET)\b/i, 'utility', 'institution'],
  [/\b(MPAY|POS|QR)\b/i, 'merchant_payment', 'merchant'],
  [/\b(FT|TRANSFER|TRF)\b/i, 'transfer', 'individual'],
];

export function categorise(written: WrittenTransaction): Draft {
  const base = {
    date: written.date,
    direction: written.direction,
    amount: money(written.amount),
    narration: written.description,
  };
  const terminal = /\d{16,19}/.exec(written.description)?.[0];
  const found = terminal ? merchantDirectory().resolveTerminal(terminal) : undefined;
  if (found?.matched) {
    const merchant = {
      name: found.merchant!,
      terminal: found.terminal!,
      mcc: found.mcc!,
      category: found.category!,
    };
    const category: Category =
      written.direction === 'credit'
        ? 'refund'
        : merchant.category === 'utilities'
          ? 'utility'
          : 'merchant_payment';
    return {
      ...base,
      counterparty: { type: 'merchant', name: merchant.name },
      category,
      merchant,
      channel: 'in store',
      confidence: 0.92,
    };
  }
  const rule = RULES.find(([pattern]) => pattern.test(written.description));
  const [category, type]: [Category, CounterpartyType] = rule
    ? [rule[1], rule[2]]
    : ['other', 'institution'];
  return {
    ...base,
    counterparty: { type, name: written.description },
    category,
    merchant: null,
    channel: type === 'cash' || type === 'merchant' ? 'in store' : 'other',
    confidence: rule ? 0.75 : 0.5,
  };
}
