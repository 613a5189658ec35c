// The documented ways a transaction is written: the older and the newer shape of the full report,
// and the listing of GET /v1/reports/{id}/transactions. Field names and nesting are the
// documents'; the values of `amount`'s sign, `personal_finance_category`, `payment_channel` and
// `confidence_level` are not shown there and are the mock's own (fixtures/README.md).
import type { TransactionShape } from '../fixtures.js';
import type { Category, Transaction } from './transaction.js';

/**
 * `date`, `description` (the raw narration), `debit`/`credit` (one of them null), `balance`, and
 * the merchant in camelCase.
 */
/** The fields the older shape and the transactions listing share. */
function ledgerFields(t: Transaction) {
  return {
    date: t.date,
    description: t.narration,
    debit: t.direction === 'debit' ? t.amount : null,
    credit: t.direction === 'credit' ? t.amount : null,
    balance: t.balance,
    category: t.category,
  };
}

export function olderTransaction(t: Transaction) {
  return {
    ...ledgerFields(t),
    merchant: t.merchant?.name ?? null,
    merchantTerminal: t.merchant?.terminal ?? null,
    mcc: t.merchant?.mcc ?? null,
    merchantCategory: t.merchant?.category ?? null,
  };
}

/**
 * The newer shape. `amount` is positive for money out and negative for money in (the mock's
 * choice).
 */
export function newerTransaction(t: Transaction) {
  const [primary, detailed] = financeCategory(t);
  return {
    transaction_id: t.id,
    date: t.date,
    name: t.counterparty.name,
    amount: t.direction === 'debit' ? t.amount : -t.amount,
    iso_currency_code: 'NPR',
    balance: t.balance,
    merchant_name: t.merchant?.name ?? null,
    payment_terminal_id: t.merchant?.terminal ?? null,
    mcc: t.merchant?.mcc ?? null,
    personal_finance_category: { primary, detailed },
    counterparties: [
      {
        type: t.counterparty.type,
        name: t.counterparty.name,
        confidence_level: confidenceLevel(t.confidence),
      },
    ],
    payment_channel: t.channel,
    pending: false,
  };
}

export function reportTransaction(t: Transaction, shape: TransactionShape) {
  return shape === 'older' ? olderTransaction(t) : newerTransaction(t);
}

/** An item of GET /v1/reports/{id}/transactions, as documented. */
export function listedTransaction(t: Transaction) {
  return { id: t.id, ...ledgerFields(t), confidence: t.confidence };
}

function confidenceLevel(confidence: number): string {
  if (confidence >= 0.9) return 'VERY_HIGH';
  if (confidence >= 0.8) return 'HIGH';
  if (confidence >= 0.6) return 'MEDIUM';
  return 'LOW';
}

type Pfc = readonly [primary: string, detailed: string];

/** Payments at a shop, by the directory's spend category. */
const MERCHANT_CATEGORIES: Record<string, Pfc> = {
  groceries: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_GROCERIES'],
  dining: ['FOOD_AND_DRINK', 'FOOD_AND_DRINK_RESTAURANT'],
  fuel: ['TRANSPORTATION', 'TRANSPORTATION_GAS'],
  transport: ['TRANSPORTATION', 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES'],
  travel: ['TRAVEL', 'TRAVEL_LODGING'],
  health: ['MEDICAL', 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS'],
  utilities: ['RENT_AND_UTILITIES', 'RENT_AND_UTILITIES_TELEPHONE'],
  entertainment: ['ENTERTAINMENT', 'ENTERTAINMENT_TV_AND_MOVIES'],
  education: ['GENERAL_SERVICES', 'GENERAL_SERVICES_EDUCATION'],
  electronics: ['GENERAL_MERCHANDISE', 'GENERAL_MERCHANDISE_ELECTRONICS'],
  home: ['HOME_IMPROVEMENT', 'HOME_IMPROVEMENT_FURNITURE'],
  personal_care: ['PERSONAL_CARE', 'PERSONAL_CARE_HAIR_AND_BEAUTY'],
};
const OTHER_MERCHANDISE: Pfc = [
  'GENERAL_MERCHANDISE',
  'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE',
];

/** Everything else, by transaction category; [money in, money out] where the two differ. */
const CATEGORIES: Record<Category, Pfc | readonly [credit: Pfc, debit: Pfc]> = {
  salary: ['INCOME', 'INCOME_WAGES'],
  remittance: ['INCOME', 'INCOME_REMITTANCE'],
  interest: ['INCOME', 'INCOME_INTEREST_EARNED'],
  refund: ['TRANSFER_IN', 'TRANSFER_IN_REFUND'],
  loan_repayment: ['LOAN_PAYMENTS', 'LOAN_PAYMENTS_EMI'],
  utility: ['RENT_AND_UTILITIES', 'RENT_AND_UTILITIES_OTHER_UTILITIES'],
  wallet: [
    ['TRANSFER_IN', 'TRANSFER_IN_WALLET'],
    ['TRANSFER_OUT', 'TRANSFER_OUT_WALLET'],
  ],
  cash_withdrawal: ['TRANSFER_OUT', 'TRANSFER_OUT_WITHDRAWAL'],
  transfer: [
    ['TRANSFER_IN', 'TRANSFER_IN_ACCOUNT_TRANSFER'],
    ['TRANSFER_OUT', 'TRANSFER_OUT_ACCOUNT_TRANSFER'],
  ],
  investment: [
    ['TRANSFER_IN', 'TRANSFER_IN_INVESTMENT_AND_RETIREMENT_FUNDS'],
    ['TRANSFER_OUT', 'TRANSFER_OUT_INVESTMENT_AND_RETIREMENT_FUNDS'],
  ],
  tax: ['GOVERNMENT_AND_NON_PROFIT', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT'],
  fee: ['BANK_FEES', 'BANK_FEES_OTHER_BANK_FEES'],
  merchant_payment: OTHER_MERCHANDISE,
  other: [
    ['INCOME', 'INCOME_OTHER_INCOME'],
    ['GENERAL_SERVICES', 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES'],
  ],
};

function financeCategory(t: Transaction): Pfc {
  if (t.merchant && t.direction === 'debit')
    return MERCHANT_CATEGORIES[t.merchant.category] ?? OTHER_MERCHANDISE;
  const entry = CATEGORIES[t.category];
  if (typeof entry[0] === 'string') return entry as Pfc;
  const [credit, debit] = entry as readonly [Pfc, Pfc];
  return t.direction === 'credit' ? credit : debit;
}
