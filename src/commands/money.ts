// Which fields of the report views hold money, for the parts of replies that no document lays out
// (counterparties, recurring streams, underwriting, a report's signals, monthly summary and
// categories): a field is money by the last word of its name, as the service names amounts
// (`total_inflow`, `average_amount`, `closing_balance`, `max_supportable_emi`, `monthly_avg` …).
// Counts (`inflow_count`), shares (`emi_load_pct`, `cash_withdrawal_ratio`) and scores end
// otherwise. Beside money, what else of those replies the service names in its own way: shares
// given as fractions (a FOIR), scores and their scale, names in snake case (a factor, a check).
import { pick } from '../core/json/values.js';
import type { Money } from '../core/output/generic.js';

const MONEY_WORD =
  /(?:^|_)(?:amount|balance|credits?|debits?|inflow|outflow|net|total|avg|emi|income|expenses|principal|repayable|interest|headroom)$/;

/** True when the field (a dotted key: `loan.emi`) holds money. */
export function holdsMoney(key: string): boolean {
  return MONEY_WORD.test(key.slice(key.lastIndexOf('.') + 1));
}

/**
 * True when the field is a share given as a fraction (0.455 for 45.5%): a FOIR and its ceiling,
 * a ratio (`cash_withdrawal_ratio`). Shares in percent end in `_pct` and read as such anyway.
 */
export function isFraction(key: string): boolean {
  return (
    /(?:^|\.)foir(?:\.[^.]+)?$/.test(key) ||
    /(?:^|_)(?:foir|ratio)$/.test(key.slice(key.lastIndexOf('.') + 1))
  );
}

/** The most a score may be: a credit score's 1000 (`score`, `score.score`), a 0–100 score's 100. */
export function outOf(key: string): number | undefined {
  const last = key.slice(key.lastIndexOf('.') + 1);
  if (last === 'score' && (key === 'score' || key.endsWith('score.score'))) return 1000;
  if (/^(?:match|income_stability)_score$/.test(last)) return 100;
  return undefined;
}

/**
 * True for the fields whose values are names in snake case: a score's factors, a verification's
 * checks.
 */
export function holdsName(key: string): boolean {
  return /^(?:factor|check)$/.test(key.slice(key.lastIndexOf('.') + 1));
}

/**
 * The money of a reply: its fields by name, in the currency the reply (or its `statement`) names as
 * a text, else `fallback`: NPR for the reports and lending views, whose statements are kept in it.
 */
export function moneyOf(body: unknown, fallback?: string): Money {
  const currency =
    pick(body, 'currency') ??
    pick(body, 'iso_currency_code') ??
    pick(pick(body, 'statement'), 'currency');
  return {
    holdsMoney,
    isFraction,
    outOf,
    holdsName,
    currency: typeof currency === 'string' && currency.trim() !== '' ? currency.trim() : fallback,
  };
}
