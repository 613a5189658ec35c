// `svc data latest FAMILY` (every line item of the latest month, grouped by section) and `svc data
// keys FAMILY` (the values its series selector takes): two views of the same `/latest` reply.
import type { Context } from '../../app/context.js';
import type { View } from '../../core/output/view.js';
import { findFamily, latestPath } from './families.js';
import { fetchDataset } from './fetch.js';
import { bankQuery, parseParams } from './input.js';
import { itemListOf } from './items.js';
import { type CacheOptions, cachePolicy, type ParamOptions } from './options.js';
import { printDataset } from './print.js';
import { type DataSchemas, type DatasetRead, lineItemsView } from './views.js';

type LatestView = (
  body: unknown,
  r: DatasetRead,
  selectorName: string,
  schemas: DataSchemas,
) => View;

/** GET the family's latest month, shown with the given view. */
export async function showLatestAs(
  ctx: Context,
  familyName: string,
  options: CacheOptions & ParamOptions,
  view: LatestView,
): Promise<void> {
  const family = findFamily(familyName);
  const path = latestPath(family);
  const { reply } = await fetchDataset(
    ctx,
    {
      path,
      query: {
        ...bankQuery(family, options.bank, (message) => ctx.warn(message)),
        ...parseParams(options.param),
      },
    },
    cachePolicy(options),
  );
  await printDataset(ctx, reply, {
    what: `GET ${path}`,
    schema: (replies) => replies.latestReply(family.path),
    records: (body) => itemListOf(body, family.selector)?.items,
    view: (body, r, schemas) => view(body, r, family.selector, schemas),
  });
}

export async function showLatest(
  ctx: Context,
  familyName: string,
  options: CacheOptions & ParamOptions,
): Promise<void> {
  await showLatestAs(ctx, familyName, options, lineItemsView);
}
