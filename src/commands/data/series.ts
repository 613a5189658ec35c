// `svc data series FAMILY SELECTOR [--from YYYY-MM] [--to YYYY-MM] [--chart]`: one line item over
// time, as period/value rows or as a line chart.
import { datasetSeries, type DatasetSeries } from '../../api/data-schemas.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { printable } from '../../core/output/format.js';
import { fetchDataset } from './fetch.js';
import { findFamily, seriesPath, type DataFamily } from './families.js';
import { checkRange, parseParams } from './input.js';
import { cachePolicy, receivedList, type CacheOptions, type ParamOptions } from './options.js';
import { printDataset } from './print.js';
import { attributionLines, formatValue, seriesTitle, seriesView } from './views.js';

export interface SeriesOptions extends CacheOptions, ParamOptions {
  from?: string;
  to?: string;
  chart?: boolean;
}

export async function showSeries(ctx: Context, familyName: string, selectorArg: string | undefined, options: SeriesOptions): Promise<void> {
  const family = findFamily(familyName);
  const range = checkRange(options.from, options.to);
  const params = parseParams(options.param);
  const policy = cachePolicy(options);
  if (options.chart && ctx.format !== 'table') {
    throw new UsageError(`--chart draws for people and cannot be combined with --json or -o ${ctx.format}`);
  }
  let selector = params[family.selector] ?? selectorArg;
  if (selector === '') throw new UsageError(`the ${family.selector} (SELECTOR) is empty`);
  if (selector === undefined) {
    if (!ctx.canPrompt) throw missingSelector(family);
    const { pickSelector } = await import('./pick.js');
    selector = await pickSelector(ctx, family, policy);
  }
  // --param adds or overrides any query parameter, the bounds and the selector included.
  const query = { [family.selector]: selector, from: range.from, to: range.to, ...params };
  const { reply, data } = await fetchDataset(ctx, { path: seriesPath(family), query }, datasetSeries, policy);
  if (options.chart) return drawChart(ctx, data);
  await printDataset(ctx, reply, data, (d) => seriesView(d, receivedList(reply.body, 'points'), range));
}

function missingSelector(family: DataFamily): UsageError {
  return new UsageError(`missing argument SELECTOR: the ${family.selector} of one ${family.name} series (e.g. ${family.example})`, [
    `List them with \`svc data keys ${family.name}\`.`,
  ]);
}

async function drawChart(ctx: Context, series: DatasetSeries): Promise<void> {
  const [{ lineChart }, { createPaint }] = await Promise.all([import('../../core/output/chart.js'), import('../../core/output/paint.js')]);
  const paint = await createPaint(ctx.color);
  const points = series.data.points.flatMap((p) => (p.value === null ? [] : [{ period: printable(p.period), value: p.value }]));
  const footer = attributionLines(series.meta).map((line) => paint.dim(printable(line)));
  const body = points.length
    ? lineChart(points, { width: ctx.io.columns, color: ctx.color, format: (v) => formatValue(v), dim: paint.dim })
    : 'No data to draw.';
  ctx.out([paint.title(printable(seriesTitle(series))), body, ...footer].join('\n') + '\n');
}
