// `svc reports balance ID`: the opening, closing and average daily balance of a statement, its
// period and currency, and the trend (growing in green, declining in red).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { BalanceReply } from '../../api/replies/reports.js';
import { readReply, received, unread } from '../../api/replies/schema.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { type JsonRecord, otherFields } from '../../core/json/values.js';
import { amount, painted } from '../../core/output/cells.js';
import type { SectionsView } from '../../core/output/view.js';
import { type ReplyReading } from '../../service/reading.js';
import {
  currencyOf,
  designedView,
  factList,
  factValue,
  titled,
  TREND_COLOURS,
  type ValueFact,
} from './lending-view.js';
import { periodText } from './report-view.js';

const KNOWN = ['currency', 'opening_balance', 'closing_balance', 'avg_daily_balance', 'trend'];

export async function showBalance(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.balance, { report_id: id });
  const reply = await (await ctx.client()).request(call);
  await present(ctx, reply, {
    what: call.what,
    view: (body, reading) => balanceView(body, reading, id),
  });
}

export function balanceView(body: unknown, reading: ReplyReading, id?: string): SectionsView {
  const r = readReply(reading, BalanceReply, body);
  // A documented field of another type is shown as it came.
  const value = factValue(r, unread(BalanceReply, body, r));
  const money = amount(currencyOf(r));
  const period = r?.period;
  const known = [...KNOWN];
  const rest: JsonRecord = {};
  // `period` or `statement_period`, {from, to}: what else it holds stays in view as period.*.
  if (period) {
    const name = r?.period_named_period !== undefined ? 'period' : 'statement_period';
    known.push(name);
    const others = otherFields(received(period), ['from', 'to']);
    if (Object.keys(others).length) rest[name] = others;
  }
  const facts: ValueFact[] = [
    { key: 'period', header: 'Period', raw: period ? periodText(period) || undefined : undefined },
    { key: 'currency', header: 'Currency', raw: value('currency') },
    {
      key: 'opening_balance',
      header: 'Opening balance',
      raw: value('opening_balance'),
      show: money,
    },
    {
      key: 'closing_balance',
      header: 'Closing balance',
      raw: value('closing_balance'),
      show: money,
    },
    {
      key: 'avg_daily_balance',
      header: 'Average daily balance',
      raw: value('avg_daily_balance'),
      show: money,
    },
    {
      key: 'trend',
      header: 'Trend',
      raw: value('trend'),
      show: painted(TREND_COLOURS),
    },
  ];
  return designedView(
    factList(facts),
    [],
    { ...rest, ...otherFields(body, known) },
    { title: titled('Balance', id) },
  );
}
