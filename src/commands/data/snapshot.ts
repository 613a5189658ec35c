// `svc data snapshot [--month YYYY-MM]`: every C4 banking indicator of one month.
import type { Context } from '../../app/context.js';
import { SNAPSHOT, snapshotPath } from './families.js';
import { fetchDataset } from './fetch.js';
import { checkMonth, parseParams, refuseBsMonth } from './input.js';
import { itemListOf } from './items.js';
import type { ParamOptions } from './options.js';
import { printDataset } from './print.js';
import { lineItemsView } from './views.js';

export async function showSnapshot(
  ctx: Context,
  options: ParamOptions & { month?: string },
): Promise<void> {
  const month = checkMonth(options.month, '--month');
  if (month !== undefined) refuseBsMonth(month, '--month', await ctx.config.calendar(), ctx.now());
  const query = { [SNAPSHOT.monthParam]: month, ...parseParams(options.param) };
  const path = snapshotPath();
  const { reply } = await fetchDataset(ctx, { path, query }, undefined);
  await printDataset(ctx, reply, {
    what: `GET ${path}`,
    schema: (replies) => replies.DatasetReply,
    records: (body) => itemListOf(body, 'indicator')?.items,
    view: (body, r, schemas) => lineItemsView(body, r, 'indicator', schemas),
  });
}
