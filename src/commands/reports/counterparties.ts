// `svc reports counterparties ID`: no field name of this view is documented, so it is shown as
// it comes, by the generic view, its amounts as money; -o csv and -o ndjson write a record per
// item of its lists (by type, people, merchants …), each naming its list.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { genericView } from '../../core/output/generic.js';
import { moneyOf } from '../money.js';

/**
 * What a terminal shows of a counterparty or a type (docs/reference/output.md, "Tables"), by the
 * names the service is seen to use.
 */
const SHOWN = ['name', 'type', 'inflow', 'outflow'];

export async function showCounterparties(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.counterparties, { report_id: id });
  const reply = await (await ctx.client()).request(call);
  await present(ctx, reply, {
    what: call.what,
    viewRecords: 'list items',
    view: (body) =>
      genericView(body, {
        title: `Counterparties of ${id}`,
        empty: 'The reply names no counterparties.',
        money: moneyOf(body, 'NPR'),
        defaults: SHOWN,
      }),
  });
}
