// POST /v1/enrich (FULL): the caller's own transactions, 1 to 5,000 of them, categorised and summed
// up as a report's are. Each is checked here; report/enrich.ts does the work.
import { type Fields, isObject, jsonObjectBody, requiredDate } from '../fields.js';
import type { Reply, RequestBody } from '../http.js';
import { enrich, type EnrichInput } from '../report/enrich.js';
import { type Call, invalid, type Route } from '../route.js';

/** As documented. */
const MAX_ENRICH_TRANSACTIONS = 5000;
const MAX_DESCRIPTION = 500;

export const enrichRoutes: Route[] = [
  { method: 'POST', pattern: /^\/v1\/enrich$/, scope: 'FULL', handle: enrichTransactions },
];

function enrichTransactions({ request }: Call): Reply {
  return { status: 200, body: enrich(readTransactions(request.body)) };
}

function readTransactions(body: RequestBody): EnrichInput[] {
  const fields = jsonObjectBody(
    body,
    '{"transactions": [{"date": "2026-03-25", "description": "SALARY MARCH", "credit": 72000, "balance": 145200}]}',
  );
  const list = fields.transactions;
  if (!Array.isArray(list) || list.length === 0)
    throw invalid("'transactions' is required: an array of 1 to 5000 transactions.");
  if (list.length > MAX_ENRICH_TRANSACTIONS) {
    throw invalid(
      `'transactions' takes at most ${MAX_ENRICH_TRANSACTIONS} transactions a call; this one has ${list.length}. Split them into several calls.`,
    );
  }
  return list.map((item: unknown, i) => readTransaction(item, `transactions[${i}]`));
}

/** `credit` or `debit` is the amount (the other absent, null or 0); `balance` is optional. */
function readTransaction(item: unknown, at: string): EnrichInput {
  if (!isObject(item))
    throw invalid(`'${at}' must be an object: {date, description, credit | debit, balance}.`);
  const field = (name: string): Fields => ({ [`${at}.${name}`]: item[name] });
  const date = requiredDate(field('date'), `${at}.date`);
  const { description } = item;
  if (typeof description !== 'string' || description.trim() === '')
    throw invalid(`'${at}.description' must be a non-empty string.`);
  if (description.length > MAX_DESCRIPTION)
    throw invalid(`'${at}.description' is longer than ${MAX_DESCRIPTION} characters.`);
  const credit = amountOf(item.credit, `${at}.credit`);
  const debit = amountOf(item.debit, `${at}.debit`);
  if (credit > 0 === debit > 0)
    throw invalid(`'${at}' must have exactly one of 'credit' and 'debit' greater than 0.`);
  const { balance } = item;
  if (
    balance !== undefined &&
    balance !== null &&
    (typeof balance !== 'number' || !Number.isFinite(balance))
  ) {
    throw invalid(`'${at}.balance' must be a number or null.`);
  }
  return {
    fields: item,
    date,
    description,
    direction: credit > 0 ? 'credit' : 'debit',
    amount: credit > 0 ? credit : debit,
    balance: typeof balance === 'number' ? balance : undefined,
  };
}

/** An amount side: absent or null is 0. */
function amountOf(value: unknown, at: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw invalid(`'${at}' must be a number of at least 0, or null.`);
  return value;
}
