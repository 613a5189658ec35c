// `svc decisions list`: the decisions recorded, by outcome (the reply is not shown).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { firstFieldsView, headedList, listRecords } from '../../core/output/unshown.js';
import { moneyOf } from '../money.js';
import { decisionsQuery, FIRST, type ListFlags } from './options.js';

/**
 * The reply is not shown; a decision's fields are those it is recorded with (POST /v1/decisions)
 * and its outcome: the first columns of the CSV.
 */
const DECISION_FIELDS = [
  'client_reference_id',
  'decision',
  'report_id',
  'decision_rationale',
  'amount',
  'outcome',
];
/**
 * What a terminal shows of a decision (docs/reference/output.md, "Tables"): the others where there
 * is room, or with -o wide.
 */
const SHOWN = ['client_reference_id', 'decision', 'outcome', 'amount', 'decision_rationale'];

export async function listDecisions(ctx: Context, flags: ListFlags): Promise<void> {
  const query = decisionsQuery(flags);
  const call = target(ENDPOINTS.listDecisions);
  const reply = await (await ctx.client()).request({ ...call, query });
  await present(ctx, reply, {
    what: call.what,
    records: (body) => listRecords(body, 'data', 'decisions'),
    fields: DECISION_FIELDS,
    view: (body) =>
      headedList(
        firstFieldsView(body, FIRST, {
          empty: 'No decisions.',
          list: ['data', 'decisions'],
          documented: DECISION_FIELDS,
          money: moneyOf(body),
          defaults: SHOWN,
        }),
        'Decisions',
      ),
  });
}
