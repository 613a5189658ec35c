// `svc decisions record`: the lending decision taken on an application (the reply is not shown).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { moneyOf } from '../../api/money.js';
import type { Context } from '../../app/context.js';
import { firstFieldsView } from '../../core/output/unshown.js';
import { decisionBody, FIRST, type RecordFlags } from './options.js';

export async function recordDecision(ctx: Context, flags: RecordFlags): Promise<void> {
  const json = decisionBody(flags);
  const client = await ctx.client();
  const call = target(ENDPOINTS.recordDecision);
  const reply = await client.request({ ...call, json });
  await ctx.present(reply, {
    what: call.what,
    viewRecords: 'flat',
    view: (body) => firstFieldsView(body, FIRST, { empty: `Decision recorded for ${json.client_reference_id}.`, money: moneyOf(body) }),
  });
}
