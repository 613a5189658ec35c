// `svc decisions record` and `svc decisions outcome`: the lending decision taken on an application,
// and how the loan turned out (the reply's shape is not shown).
import { type Endpoint, ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { firstFieldsView } from '../../core/output/unshown.js';
import { moneyOf } from '../money.js';
import {
  decisionBody,
  FIRST,
  outcomeBody,
  type OutcomeFlags,
  type RecordFlags,
} from './options.js';

export async function recordDecision(ctx: Context, flags: RecordFlags): Promise<void> {
  await record(ctx, ENDPOINTS.recordDecision, decisionBody(flags), 'Decision');
}

export async function recordOutcome(ctx: Context, flags: OutcomeFlags): Promise<void> {
  await record(ctx, ENDPOINTS.recordOutcome, outcomeBody(flags), 'Outcome');
}

/**
 * Posts the body and shows the reply, what happened first; an empty reply as `Decision recorded for
 * loan-1001.`.
 */
async function record(
  ctx: Context,
  endpoint: Endpoint,
  json: { client_reference_id: string },
  what: 'Decision' | 'Outcome',
): Promise<void> {
  const call = target(endpoint);
  const reply = await (await ctx.client()).request({ ...call, json });
  await present(ctx, reply, {
    what: call.what,
    view: (body) =>
      firstFieldsView(body, FIRST, {
        empty: `${what} recorded for ${json.client_reference_id}.`,
        money: moneyOf(body),
      }),
  });
}
