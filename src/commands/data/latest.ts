// `svc data latest FAMILY`: every line item of the latest month, grouped by section.
import { datasetLatest } from '../../api/data-schemas.js';
import type { Context } from '../../core/context.js';
import { fetchDataset } from './fetch.js';
import { findFamily, latestPath } from './families.js';
import { parseParams } from './input.js';
import { cachePolicy, receivedList, type CacheOptions, type ParamOptions } from './options.js';
import { layoutOf, printDataset } from './print.js';
import { lineItemsView } from './views.js';

export async function showLatest(ctx: Context, familyName: string, options: CacheOptions & ParamOptions): Promise<void> {
  const family = findFamily(familyName);
  const query = parseParams(options.param);
  const policy = cachePolicy(options);
  const { reply, data } = await fetchDataset(ctx, { path: latestPath(family), query }, datasetLatest, policy);
  await printDataset(ctx, reply, data, (d) => lineItemsView(d, receivedList(reply.body, 'items'), layoutOf(ctx)));
}
