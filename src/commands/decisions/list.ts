// `svc decisions list`: the decisions recorded, by outcome (the reply is not shown).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { moneyOf } from '../../api/money.js';
import type { Context } from '../../app/context.js';
import { firstFieldsView, headedList, listRecords } from '../../core/output/unshown.js';
import { decisionsQuery, FIRST, type ListFlags } from './options.js';

export async function listDecisions(ctx: Context, flags: ListFlags): Promise<void> {
  const query = decisionsQuery(flags);
  const call = target(ENDPOINTS.listDecisions);
  await ctx.requestAndPresent(
    { ...call, query },
    {
      records: (body) => listRecords(body, 'data', 'decisions'),
      view: (body) => headedList(firstFieldsView(body, FIRST, { empty: 'No decisions.', list: ['data', 'decisions'], money: moneyOf(body) }), 'Decisions'),
    },
  );
}
