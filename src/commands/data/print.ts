// Prints a dataset reply in the chosen format. Tables carry the attribution as their footer; CSV
// stays clean for spreadsheets, so the attribution goes to stderr instead.
import type { DatasetMeta } from '../../api/data-schemas.js';
import type { Context } from '../../core/context.js';
import { printable } from '../../core/output/format.js';
import type { Reply } from '../../core/output/render.js';
import type { View } from '../../core/output/view.js';
import { attributionLines, type Layout } from './views.js';

export async function printDataset<T extends { meta: DatasetMeta }>(ctx: Context, reply: Reply, data: T, build: (data: T) => View): Promise<void> {
  await ctx.print(reply, data, build);
  if (ctx.format === 'csv') for (const line of attributionLines(data.meta)) ctx.err(printable(line));
}

/** A boxed table on a terminal; tab-separated lines, CSV or JSON otherwise. */
export function layoutOf(ctx: Context): Layout {
  return { terminal: ctx.format === 'table' && ctx.io.stdoutIsTTY };
}
