// `svc config path`: where the config file is.
import type { Context } from '../../app/context.js';

export async function printPath(ctx: Context): Promise<void> {
  const store = await ctx.config.store();
  ctx.out(store.file + '\n');
}
