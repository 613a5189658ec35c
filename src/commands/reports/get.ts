import type { Context } from '../../core/context.js';
import { idPath } from '../args.js';
import { reportReader } from './report-view.js';

export async function getReport(ctx: Context, id: string): Promise<void> {
  const path = idPath('/v1/reports', id);
  const client = await ctx.client();
  const reply = await client.request({ method: 'GET', path });
  await ctx.present(reply, reportReader(`GET ${path}`));
}
