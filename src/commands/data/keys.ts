// `svc data keys FAMILY`: the values the series selector of a family takes, read from its `/latest`.
import { datasetLatest } from '../../api/data-schemas.js';
import type { Context } from '../../core/context.js';
import { fetchDataset } from './fetch.js';
import { findFamily, latestPath } from './families.js';
import { parseParams } from './input.js';
import { cachePolicy, receivedList, type CacheOptions, type ParamOptions } from './options.js';
import { printDataset } from './print.js';
import { keysView } from './views.js';

export async function listKeys(ctx: Context, familyName: string, options: CacheOptions & ParamOptions): Promise<void> {
  const family = findFamily(familyName);
  const query = parseParams(options.param);
  const policy = cachePolicy(options);
  const { reply, data } = await fetchDataset(ctx, { path: latestPath(family), query }, datasetLatest, policy);
  await printDataset(ctx, reply, data, (d) => keysView(d, receivedList(reply.body, 'items'), family.selector));
}
