// `svc reports get ID`: the full report.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { reportReader } from './report-view.js';

export async function getReport(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.getReport, { report_id: id });
  const client = await ctx.client();
  const reply = await client.request(call);
  await present(ctx, reply, reportReader(call.what));
}
