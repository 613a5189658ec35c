// `svc grants data GRANT_ID`: the data an end user granted through Connect, read with the API key
// plus the grant's access token, which travels in the X-Svc-Access-Token header, never in the URL.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../core/context.js';
import { readEnv } from '../../core/environment.js';
import { accessToken } from '../consents/options.js';
import { scopedDataView } from '../consents/replies.js';

export const ACCESS_TOKEN_HEADER = 'X-Svc-Access-Token';

export async function readGrantData(ctx: Context, grantId: string, flags: { accessToken?: string }): Promise<void> {
  const call = target(ENDPOINTS.grantData, { grant_id: grantId });
  const token = accessToken(flags.accessToken, readEnv(ctx.io.env, 'SVC_ACCESS_TOKEN'));
  // Masked from now on in everything svc prints: --debug traces, errors, the reply itself.
  ctx.secrets.add(token);
  const client = await ctx.client();
  const reply = await client.request({ ...call, headers: { [ACCESS_TOKEN_HEADER]: token } });
  await ctx.present(reply, { what: call.what, view: (body, reading) => scopedDataView(body, reading, `Data of grant ${grantId}`) });
}
