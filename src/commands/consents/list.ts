// `svc consents list`: the consents your organisation gave (the reply's shape is not shown).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { firstFieldsView, headedList, listRecords } from '../../core/output/unshown.js';

export async function listConsents(ctx: Context): Promise<void> {
  const call = target(ENDPOINTS.listConsents);
  await ctx.requestAndPresent(call, {
    records: (body) => listRecords(body, 'data', 'consents'),
    view: (body) => headedList(firstFieldsView(body, ['status'], { empty: 'No consents.', list: ['data', 'consents'] }), 'Consents'),
  });
}
