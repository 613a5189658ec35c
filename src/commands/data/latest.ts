// `svc data latest FAMILY`: every line item of the latest month, grouped by section.
import type { Context } from '../../core/context.js';
import { fetchDataset } from './fetch.js';
import { findFamily, latestPath } from './families.js';
import { bankQuery, parseParams } from './input.js';
import { itemListOf } from './items.js';
import { cachePolicy, type CacheOptions, type ParamOptions } from './options.js';
import { printDataset } from './print.js';
import { lineItemsView } from './views.js';

export async function showLatest(ctx: Context, familyName: string, options: CacheOptions & ParamOptions): Promise<void> {
  const family = findFamily(familyName);
  const path = latestPath(family);
  const { reply } = await fetchDataset(ctx, { path, query: { ...bankQuery(family, options.bank), ...parseParams(options.param) } }, cachePolicy(options));
  await printDataset(ctx, reply, {
    what: `GET ${path}`,
    records: (body) => itemListOf(body, family.selector)?.items,
    view: (body, reading) => lineItemsView(body, reading, family.selector),
  });
}
