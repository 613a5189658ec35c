// `svc consents revoke ID`: the consent's token opens nothing from now on.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { firstFieldsView } from '../../core/output/unshown.js';

export async function revokeConsent(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.revokeConsent, { consent_id: id });
  await ctx.requestAndPresent(call, {
    view: (body) => firstFieldsView(body, ['status'], { empty: `Consent ${id} revoked.` }),
  });
}
