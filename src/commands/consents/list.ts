// `svc consents list`: the consents your organisation gave (the reply's shape is not shown).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../core/context.js';
import { heading } from '../../core/output/generic.js';
import { firstFieldsView, listRecords } from '../../core/output/unshown.js';
import type { SectionsView } from '../../core/output/view.js';

export async function listConsents(ctx: Context): Promise<void> {
  const client = await ctx.client();
  const call = target(ENDPOINTS.listConsents);
  const reply = await client.request(call);
  await ctx.present(reply, {
    what: call.what,
    records: (body) => listRecords(body, 'data', 'consents'),
    view: (body) => headedConsents(firstFieldsView(body, ['status'], { empty: 'No consents.' })),
  });
}

/** The reply's list is the consents: a person reads that over it, not the name of its key (`data`, "Data"). */
function headedConsents(view: SectionsView): SectionsView {
  const dataHeading = heading(['data']);
  return { ...view, parts: view.parts.map((part) => (part.heading === dataHeading ? { ...part, heading: 'Consents' } : part)) };
}
