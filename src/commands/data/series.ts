// `svc data series FAMILY SELECTOR [--from YYYY-MM] [--to YYYY-MM] [--chart]`: one line item over
// time, as month/value rows or as a line chart.
import type { Context } from '../../app/context.js';
import { forPeople, presentText } from '../../app/present.js';
import { loadBsCalendar } from '../../core/calendar/calendar.js';
import { UsageError } from '../../core/errors.js';
import { lineChart } from '../../core/output/chart.js';
import { isTableFormat } from '../../core/output/formats.js';
import { createPaint } from '../../core/output/paint.js';
import { type Reply, textLines } from '../../core/output/render.js';
import { type DataFamily, findFamily, seriesPath } from './families.js';
import { fetchDataset } from './fetch.js';
import { bankQuery, checkRange, fiscalMonths, parseParams, refuseBsMonth } from './input.js';
import { type SeriesList, seriesListOf } from './items.js';
import { type CacheOptions, cachePolicy, type ParamOptions } from './options.js';
import { pickSelector } from './pick.js';
import { attributionOf, type DatasetReader, printDataset } from './print.js';
import { formatValue, seriesFacts, seriesTitle, seriesView } from './views.js';

export interface SeriesOptions extends CacheOptions, ParamOptions {
  from?: string;
  to?: string;
  /** A Nepali fiscal year, YYYY/YY: its AD months. */
  fy?: string;
  chart?: boolean;
}

export async function showSeries(
  ctx: Context,
  familyName: string,
  selectorArg: string | undefined,
  options: SeriesOptions,
): Promise<void> {
  const family = findFamily(familyName);
  const range = await monthRange(ctx, options);
  const params = parseParams(options.param);
  const bank = bankQuery(family, options.bank, (message) => ctx.warn(message));
  const policy = cachePolicy(options);
  if (options.chart && !isTableFormat(ctx.format)) {
    throw new UsageError(
      `--chart draws for people and cannot be combined with --json or -o ${ctx.format}`,
    );
  }
  let selector = params[family.selector] ?? selectorArg;
  if (selector === '') throw new UsageError(`the ${family.selector} (SELECTOR) is empty`);
  if (selector === undefined) {
    if (!ctx.canPrompt) throw missingSelector(family);
    selector = await pickSelector(ctx, family, policy, bank);
  }
  // --param adds or overrides any query parameter, the bounds and the selector included.
  const query = { [family.selector]: selector, from: range.from, to: range.to, ...bank, ...params };
  const path = seriesPath(family);
  const { reply } = await fetchDataset(ctx, { path, query }, policy);
  const series = seriesListOf(reply.body);
  // No series reply is shown in the documents: the envelope alone is read.
  const read = { what: `GET ${path}`, schema: (replies) => replies.DatasetReply } satisfies Pick<
    DatasetReader,
    'what' | 'schema'
  >;
  if (options.chart && series?.points.length)
    return drawChart(ctx, reply, read, series, family.selector);
  if (options.chart)
    ctx.warn(
      series
        ? 'the series holds no observations to draw'
        : 'the reply holds no series of months and values to draw; showing it as it is',
    );
  await printDataset(ctx, reply, {
    ...read,
    // No observations make no list of records: -o csv and -o ndjson write the reply as one.
    records: (body) => {
      const points = seriesListOf(body)?.points;
      return points?.length ? points : undefined;
    },
    view: (body, r, schemas) => seriesView(body, r, family.selector, range, schemas),
  });
}

/**
 * `--from` and `--to`, AD months whatever the calendar (refuseBsMonth), or `--fy`'s AD months, said
 * on stderr: the bounds sent.
 */
async function monthRange(
  ctx: Context,
  options: SeriesOptions,
): Promise<{ from?: string; to?: string }> {
  if (options.fy === undefined) {
    const range = checkRange(options.from, options.to);
    if (range.from === undefined && range.to === undefined) return range;
    const calendar = await ctx.config.calendar();
    refuseBsMonth(range.from, '--from', calendar, ctx.now());
    refuseBsMonth(range.to, '--to', calendar, ctx.now());
    return range;
  }
  // --fy with --from or --to is refused by its declaration (index.ts).
  const year = ((await ctx.config.calendar()) ?? (await loadBsCalendar())).fiscalYear(options.fy);
  const months = fiscalMonths(year);
  ctx.err(
    `--fy ${options.fy} (${year.since} to ${year.until}) selects the AD months ${months.from} to ${months.last}, the first and the last only in part.`,
  );
  return { from: months.from, to: months.to };
}

function missingSelector(family: DataFamily): UsageError {
  return new UsageError(
    `missing argument SELECTOR: the ${family.selector} of one ${family.name} series (e.g. ${family.example})`,
    [`List them with \`svc data keys ${family.name}\`.`],
  );
}

async function drawChart(
  ctx: Context,
  reply: Reply,
  read: Pick<DatasetReader, 'what' | 'schema'>,
  series: SeriesList,
  selectorName: string,
): Promise<void> {
  const paint = await createPaint(ctx.color);
  const facts = seriesFacts(
    forPeople(ctx, series),
    selectorName,
    await import('../../api/replies/data.js'),
  );
  const points = facts.points.flatMap((p) =>
    p.value === undefined ? [] : [{ period: p.month, value: Number(p.value) }],
  );
  // With bs, the as-of date is in BS and the months, AD ones, say so (docs/reference/dates.md,
  // "Months of svc data").
  const calendar = await ctx.config.calendar();
  const label = calendar ? (text: string) => calendar.chartLabel(text) : undefined;
  const attribution = await attributionOf(ctx, reply.body, read, label);
  const body = points.length
    ? lineChart(points, {
        width: ctx.io.columns,
        color: ctx.color,
        format: (v) => formatValue(v),
        dim: paint.dim,
        label,
      })
    : 'No data to draw.';
  // On a terminal the attribution is the chart's footer, wrapped between words as under a table;
  // in a pipe, stdout keeps to the chart and the attribution is a line on stderr.
  const footer = ctx.io.stdoutIsTTY
    ? textLines(attribution, { terminal: true, width: ctx.io.columns }, paint.dim)
    : '';
  // The title wraps between words on a terminal, as a table's does: no month is split at its `-`.
  const title = textLines(
    [seriesTitle(facts, label)],
    { terminal: ctx.io.stdoutIsTTY, width: ctx.io.columns },
    paint.title,
  );
  const chart = `${title}${body}\n${footer}`;
  await presentText(ctx, chart);
  if (!ctx.io.stdoutIsTTY) for (const line of attribution) ctx.err(line);
}
