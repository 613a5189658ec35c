// `svc reports income ID [--chart]`: the salary found in a statement (amount, regularity, day of
// the month), the income stability score, remittance, the average monthly credit and the credits of
// each month; `--chart` draws the monthly credits as a line chart, as `svc data series --chart`
// draws a series.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { IncomeReply, MonthlyCreditsReply } from '../../api/replies/reports.js';
import { readReply, unread } from '../../api/replies/schema.js';
import type { Context } from '../../app/context.js';
import { forPeople, present, presentText } from '../../app/present.js';
import { UsageError } from '../../core/errors.js';
import type { ExactNumber } from '../../core/json/exact-number.js';
import {
  amount,
  ItemFields,
  moneyColumn,
  outOf,
  painted,
  type Show,
  yesNo,
} from '../../core/output/cells.js';
import { type ChartPoint, lineChart } from '../../core/output/chart.js';
import { formatAmount } from '../../core/output/format.js';
import { isTableFormat } from '../../core/output/formats.js';
import { cellText, withExtraColumns } from '../../core/output/generic.js';
import { createPaint } from '../../core/output/paint.js';
import { textLines } from '../../core/output/render.js';
import type { Column, ListView, SectionsView } from '../../core/output/view.js';
import { ReplyReading } from '../../service/reading.js';
import { currencyOf, factsAndLists, factValue, titled, type ValueFact } from './lending-view.js';
import { transactionsPart } from './transactions.js';

type Decimal = number | ExactNumber;

export async function showIncome(
  ctx: Context,
  id: string,
  options: { chart?: boolean },
): Promise<void> {
  const call = target(ENDPOINTS.income, { report_id: id });
  if (options.chart && !isTableFormat(ctx.format)) {
    throw new UsageError(
      `--chart draws for people and cannot be combined with --json or -o ${ctx.format}`,
    );
  }
  const client = await ctx.client();
  const reply = await client.request(call);
  if (options.chart) {
    const points = monthlyCreditPoints(forPeople(ctx, reply.body));
    if (points.length) return drawChart(ctx, id, points);
    ctx.warn('the reply holds no monthly credits to draw; showing it as it is');
  }
  await present(ctx, reply, {
    what: call.what,
    viewRecords: 'list items',
    view: (body, reading) => incomeView(body, reading, id),
  });
}

/** `25th of the month`; anything but a day of a month as it came. */
const dayOfMonth =
  (day: Decimal | undefined): Show =>
  (raw) => {
    const n = day === undefined ? undefined : Number(day);
    if (n === undefined || !Number.isInteger(n) || n < 1 || n > 31) return cellText(raw);
    const suffix =
      n % 10 === 1 && n !== 11
        ? 'st'
        : n % 10 === 2 && n !== 12
          ? 'nd'
          : n % 10 === 3 && n !== 13
            ? 'rd'
            : 'th';
    return `${n}${suffix} of the month`;
  };

export function incomeView(body: unknown, reading: ReplyReading, id?: string): SectionsView {
  const r = readReply(reading, IncomeReply, body);
  // A documented field of another type is shown as it came.
  const value = factValue(r, unread(IncomeReply, body, r));
  // No currency is documented for this view: the statement's, NPR, unless the reply names one.
  const currency = currencyOf(r);
  const money = amount(currency);
  const facts: ValueFact[] = [
    {
      key: 'salary_detected',
      header: 'Salary detected',
      raw: value('salary_detected'),
      show: yesNo,
    },
    {
      key: 'salary_amount',
      header: 'Salary',
      raw: value('salary_amount'),
      show: money,
    },
    {
      key: 'salary_regularity',
      header: 'Salary regularity',
      raw: value('salary_regularity'),
      show: painted({ monthly: 'good', irregular: 'warn' }),
    },
    {
      key: 'salary_day_of_month',
      header: 'Salary day',
      raw: value('salary_day_of_month'),
      show: dayOfMonth(r?.salary_day_of_month),
    },
    {
      key: 'income_stability_score',
      header: 'Income stability',
      raw: value('income_stability_score'),
      show: outOf(100),
    },
    {
      key: 'remittance_detected',
      header: 'Remittance',
      raw: value('remittance_detected'),
      show: yesNo,
    },
    {
      key: 'avg_monthly_credit',
      header: 'Average monthly credit',
      raw: value('avg_monthly_credit'),
      show: money,
    },
  ];
  return factsAndLists(
    body,
    facts,
    [
      {
        key: 'monthly_credits',
        heading: 'Monthly credits',
        items: r?.monthly_credits,
        table: monthlyCreditsTable,
      },
      transactionsPart('income_transactions', 'Income transactions', r?.income_transactions),
    ],
    titled('Income', id),
    currency,
  );
}

interface MonthlyCredit {
  month: unknown;
  total: unknown;
  rest: Record<string, unknown>;
}

export function monthlyCreditsTable(
  items: readonly unknown[],
  currency = 'NPR',
): ListView<MonthlyCredit> {
  const rows = items.map((item): MonthlyCredit => {
    const f = new ItemFields(item);
    return { month: f.take('month'), total: f.take('total_credits'), rest: f.rest() };
  });
  const columns: Column<MonthlyCredit>[] = [
    { key: 'month', header: 'MONTH', value: (r) => cellText(r.month), keep: true },
    moneyColumn('total_credits', 'CREDITS', (r) => r.total, currency),
  ];
  return withExtraColumns<MonthlyCredit>(
    { kind: 'list', rows, columns, empty: 'No monthly credits.' },
    (r) => r.rest,
  );
}

/** The months with a number of credits, in the reply's order (oldest first, as documented). */
export function monthlyCreditPoints(body: unknown): ChartPoint[] {
  // Read apart from the view (its --debug notes are the view's): a reading named by the endpoint.
  const credits = readReply(
    new ReplyReading(`${ENDPOINTS.income.method} ${ENDPOINTS.income.path}`),
    MonthlyCreditsReply,
    body,
  )?.monthly_credits;
  // A list holding anything but objects is shown, not drawn.
  if (!credits || credits.some((item) => item === undefined)) return [];
  return credits.flatMap((item) => {
    const value = item?.total_credits;
    return value === undefined ? [] : [{ period: item?.month ?? '?', value }];
  });
}

async function drawChart(ctx: Context, id: string, points: ChartPoint[]): Promise<void> {
  const paint = await createPaint(ctx.color);
  // With bs, the months, AD ones, say so (docs/reference/dates.md, "Months of svc data"); a date
  // would be shown in BS.
  const calendar = await ctx.config.calendar();
  const label = calendar ? (text: string) => calendar.chartLabel(text) : (text: string) => text;
  const first = label(points[0]!.period);
  const last = label(points.at(-1)!.period);
  const title = `${titled('Monthly credits', id)} · ${first === last ? first : `${first} to ${last}`}`;
  const chart = lineChart(points, {
    width: ctx.io.columns,
    color: ctx.color,
    format: (v) => formatAmount(v),
    dim: paint.dim,
    label,
  });
  // The title wraps between words on a terminal: no month is split at its `-`.
  await presentText(
    ctx,
    textLines([title], { terminal: ctx.io.stdoutIsTTY, width: ctx.io.columns }, paint.title) +
      chart +
      '\n',
  );
}
