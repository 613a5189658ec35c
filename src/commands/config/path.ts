// `svc config path`: where the config file is.
import type { Context } from '../../core/context.js';

export async function printPath(ctx: Context): Promise<void> {
  const store = await ctx.config();
  ctx.out(store.file + '\n');
}
