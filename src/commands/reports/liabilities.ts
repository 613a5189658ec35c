// `svc reports liabilities ID`: the monthly EMI total, the share of income it takes (EMI load), the
// bounced payments, and the lenders with what was paid to each.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { LiabilitiesReply } from '../../api/replies/reports.js';
import { readReply, unread } from '../../api/replies/schema.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import type { ExactNumber } from '../../core/json/exact-number.js';
import {
  amount,
  count,
  ItemFields,
  moneyColumn,
  percent,
  type Show,
} from '../../core/output/cells.js';
import { cellText, withExtraColumns } from '../../core/output/generic.js';
import type { Column, ListView, SectionsView } from '../../core/output/view.js';
import type { ReplyReading } from '../../service/reading.js';
import { currencyOf, factsAndLists, factValue, titled, type ValueFact } from './lending-view.js';
import { transactionsPart } from './transactions.js';

export async function showLiabilities(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.liabilities, { report_id: id });
  const reply = await (await ctx.client()).request(call);
  await present(ctx, reply, {
    what: call.what,
    viewRecords: 'list items',
    view: (body, reading) => liabilitiesView(body, reading, id),
  });
}

/** Bounced payments: none is good news, any is bad. */
const bounces =
  (bounced: number | ExactNumber | undefined): Show =>
  (raw, paint) => {
    const text = count(raw, paint);
    return bounced === undefined ? text : Number(bounced) > 0 ? paint.bad(text) : paint.good(text);
  };

export function liabilitiesView(body: unknown, reading: ReplyReading, id?: string): SectionsView {
  const r = readReply(reading, LiabilitiesReply, body);
  // A documented field of another type is shown as it came.
  const value = factValue(r, unread(LiabilitiesReply, body, r));
  const currency = currencyOf(r);
  const money = amount(currency);
  const facts: ValueFact[] = [
    {
      key: 'monthly_emi_total',
      header: 'Monthly EMI total',
      raw: value('monthly_emi_total'),
      show: money,
    },
    {
      key: 'emi_load_pct',
      header: 'EMI load',
      raw: value('emi_load_pct'),
      show: percent,
    },
    {
      key: 'bounce_count',
      header: 'Bounces',
      raw: value('bounce_count'),
      show: bounces(r?.bounce_count),
    },
  ];
  return factsAndLists(
    body,
    facts,
    [
      { key: 'lenders', heading: 'Lenders', items: r?.lenders, table: lendersTable },
      transactionsPart(
        'liability_transactions',
        'Liability transactions',
        r?.liability_transactions,
      ),
    ],
    titled('Liabilities', id),
    currency,
  );
}

interface Lender {
  lender: unknown;
  total: unknown;
  count: unknown;
  monthlyAvg: unknown;
  rest: Record<string, unknown>;
}

export function lendersTable(items: readonly unknown[], currency = 'NPR'): ListView<Lender> {
  const rows = items.map((item): Lender => {
    const f = new ItemFields(item);
    return {
      lender: f.take('lender'),
      total: f.take('total'),
      count: f.take('count'),
      monthlyAvg: f.take('monthly_avg'),
      rest: f.rest(),
    };
  });
  const columns: Column<Lender>[] = [
    { key: 'lender', header: 'LENDER', value: (r) => cellText(r.lender), flex: true },
    moneyColumn('total', 'TOTAL', (r) => r.total, currency),
    {
      key: 'count',
      header: 'PAYMENTS',
      value: (r) => cellText(r.count),
      display: (r, paint) => count(r.count, paint),
      formatsValue: true,
      align: 'right',
      keep: true,
    },
    moneyColumn('monthly_avg', 'MONTHLY AVG', (r) => r.monthlyAvg, currency),
  ];
  return withExtraColumns<Lender>(
    { kind: 'list', rows, columns, empty: 'No lenders found.' },
    (r) => r.rest,
  );
}
