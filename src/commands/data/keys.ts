// `svc data keys FAMILY`: the selectors of the family's series, from its latest month.
import type { Context } from '../../app/context.js';
import { showLatestAs } from './latest.js';
import type { CacheOptions, ParamOptions } from './options.js';
import { keysView } from './views.js';

export async function listKeys(
  ctx: Context,
  familyName: string,
  options: CacheOptions & ParamOptions,
): Promise<void> {
  await showLatestAs(ctx, familyName, options, keysView);
}
