// Prints a dataset reply in the chosen format. Tables carry the attribution as their footer (under
// the table on a terminal, on stderr in a pipe); CSV stays clean for spreadsheets, so the
// attribution goes to stderr instead.
import { ReplyReading } from '../../core/reading.js';
import type { Context, ReplyReader } from '../../app/context.js';
import type { Reply } from '../../core/output/render.js';
import { attributionLines } from './views.js';

export async function printDataset(ctx: Context, reply: Reply, reader: ReplyReader): Promise<void> {
  await ctx.present(reply, reader);
  if (ctx.format === 'csv') for (const line of attributionLines(await ctx.forPeople(reply.body), new ReplyReading(reader.what))) ctx.err(line);
}
