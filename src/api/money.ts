// Which fields of the report views hold money, for the parts of replies that no document lays out
// (counterparties, recurring streams, underwriting, a report's signals, monthly summary and
// categories): a field is money by the last word of its name, as the service names amounts
// (`total_inflow`, `average_amount`, `closing_balance`, `max_supportable_emi`, `monthly_avg` …).
// Counts (`inflow_count`), shares (`emi_load_pct`, `cash_withdrawal_ratio`) and scores end otherwise.
import type { Money } from '../core/output/generic.js';
import { pick } from '../core/reading.js';

const MONEY_WORD = /(?:^|_)(?:amount|balance|credits?|debits?|inflow|outflow|net|total|avg|emi|income|expenses|principal|repayable|interest|headroom)$/;

/** True when the field (a dotted key: `loan.emi`) holds money. */
export function holdsMoney(key: string): boolean {
  return MONEY_WORD.test(key.slice(key.lastIndexOf('.') + 1));
}

/** The money of a reply: its fields by name, in the currency the reply (or its `statement`) names as a text. */
export function moneyOf(body: unknown): Money {
  const currency = pick(body, 'currency') ?? pick(pick(body, 'statement'), 'currency');
  return { holdsMoney, currency: typeof currency === 'string' && currency !== '' ? currency : undefined };
}
