// `svc consents list`: the consents your organisation gave (the reply's shape is not shown).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { firstFieldsView, headedList, listRecords } from '../../core/output/unshown.js';

export async function listConsents(ctx: Context): Promise<void> {
  const client = await ctx.client();
  const call = target(ENDPOINTS.listConsents);
  const reply = await client.request(call);
  await ctx.present(reply, {
    what: call.what,
    records: (body) => listRecords(body, 'data', 'consents'),
    view: (body) => headedList(firstFieldsView(body, ['status'], { empty: 'No consents.', list: ['data', 'consents'] }), 'Consents'),
  });
}
