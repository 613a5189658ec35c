// `svc decisions record|list|outcome`: the lending decisions you took on reports, and how the
// loans turned out. The documents show none of the replies: each is shown by the generic view,
// the decision, outcome and status first.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../core/context.js';
import { firstFieldsView, listRecords } from '../consents/replies.js';
import { decisionBody, decisionsQuery, outcomeBody, type OutcomeFlags, type RecordFlags } from './options.js';

/** What says what happened, first in every view. */
export const FIRST = ['decision', 'outcome', 'status'];

export async function recordDecision(ctx: Context, flags: RecordFlags): Promise<void> {
  const json = decisionBody(flags);
  const client = await ctx.client();
  const call = target(ENDPOINTS.recordDecision);
  const reply = await client.request({ ...call, json });
  await ctx.present(reply, { what: call.what, view: (body) => firstFieldsView(body, FIRST, { empty: `Decision recorded for ${json.client_reference_id}.` }) });
}

export async function listDecisions(ctx: Context, flags: { outcome?: string; limit?: string }): Promise<void> {
  const query = decisionsQuery(flags);
  const client = await ctx.client();
  const call = target(ENDPOINTS.listDecisions);
  const reply = await client.request({ ...call, query });
  await ctx.present(reply, {
    what: call.what,
    records: (body) => listRecords(body, 'data', 'decisions'),
    view: (body) => firstFieldsView(body, FIRST, { empty: 'No decisions.' }),
  });
}

export async function recordOutcome(ctx: Context, flags: OutcomeFlags): Promise<void> {
  const json = outcomeBody(flags);
  const client = await ctx.client();
  const call = target(ENDPOINTS.recordOutcome);
  const reply = await client.request({ ...call, json });
  await ctx.present(reply, { what: call.what, view: (body) => firstFieldsView(body, FIRST, { empty: `Outcome recorded for ${json.client_reference_id}.` }) });
}
