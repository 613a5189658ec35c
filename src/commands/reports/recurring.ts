// `svc reports recurring ID` (also `svc recurring ID`): no field name of this view is documented,
// so it is shown as it comes, by the generic view, its amounts as money; -o csv and -o ndjson
// write a record per stream of its lists (inflow and outflow streams), each naming its list.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { genericView } from '../../core/output/generic.js';
import { moneyOf } from '../money.js';

/**
 * What a terminal shows of a stream (docs/reference/output.md, "Tables"), by the names the service
 * is seen to use: the documents name a stream's cadence, average amount, status and next date, but
 * not their fields.
 */
const SHOWN = ['counterparty', 'cadence', 'average_amount', 'status', 'next_date'];

export async function showRecurring(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.recurring, { report_id: id });
  const reply = await (await ctx.client()).request(call);
  await present(ctx, reply, {
    what: call.what,
    viewRecords: 'list items',
    view: (body) =>
      genericView(body, {
        title: `Recurring streams of ${id}`,
        empty: 'No recurring streams were found in this statement.',
        money: moneyOf(body, 'NPR'),
        defaults: SHOWN,
      }),
  });
}
