// `svc consents revoke ID`: the consent's token opens nothing from now on.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { firstFieldsView } from '../../core/output/unshown.js';

export async function revokeConsent(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.revokeConsent, { consent_id: id });
  const reply = await (await ctx.client()).request(call);
  await present(ctx, reply, {
    what: call.what,
    view: (body) => firstFieldsView(body, ['status'], { empty: `Consent ${id} revoked.` }),
  });
}
