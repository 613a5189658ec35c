// `svc decisions outcome`: how a loan turned out (the reply is not shown).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { moneyOf } from '../../api/money.js';
import type { Context } from '../../app/context.js';
import { firstFieldsView } from '../../core/output/unshown.js';
import { FIRST, outcomeBody, type OutcomeFlags } from './options.js';

export async function recordOutcome(ctx: Context, flags: OutcomeFlags): Promise<void> {
  const json = outcomeBody(flags);
  const client = await ctx.client();
  const call = target(ENDPOINTS.recordOutcome);
  const reply = await client.request({ ...call, json });
  await ctx.present(reply, {
    what: call.what,
    viewRecords: 'flat',
    view: (body) => firstFieldsView(body, FIRST, { empty: `Outcome recorded for ${json.client_reference_id}.`, money: moneyOf(body) }),
  });
}
