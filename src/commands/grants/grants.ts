// `svc grants data GRANT_ID`: the data an end user granted through Connect, read with the API key
// plus the grant's access token, which travels in the X-Svc-Access-Token header, never in the URL.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { refusesToken } from '../../config/resolve.js';
import { UsageError } from '../../core/errors.js';
import { readEnv } from '../../service/environment.js';
import { scopedDataView } from '../scoped-data.js';
import { checkToken, visibleFlagWarning } from '../tokens.js';

export const ACCESS_TOKEN_HEADER = 'X-Svc-Access-Token';

export async function readGrantData(
  ctx: Context,
  grantId: string,
  flags: { accessToken?: string },
): Promise<void> {
  const call = target(ENDPOINTS.grantData, { grant_id: grantId });
  const token = accessToken(flags.accessToken, readEnv(ctx.io.env, 'SVC_ACCESS_TOKEN'));
  if (flags.accessToken !== undefined)
    ctx.warn(visibleFlagWarning('--access-token', 'SVC_ACCESS_TOKEN'));
  // Masked from now on in everything svc prints: --debug traces, errors, the reply itself.
  ctx.secrets.add(token);
  const client = await ctx.client();
  let reply;
  try {
    reply = await client.request({ ...call, headers: { [ACCESS_TOKEN_HEADER]: token } });
  } catch (error) {
    // A refused access token is not a refused key: say which of the two to renew.
    if (refusesToken(error)) error.trouble = { kind: 'access-token' };
    throw error;
  }
  await present(ctx, reply, {
    what: call.what,
    viewRecords: 'list items',
    view: (body, reading) => scopedDataView(body, reading, `Data of grant ${grantId}`),
  });
}

/**
 * The access token of `svc grants data`: --access-token, else SVC_ACCESS_TOKEN (an empty one is
 * not set); neither is a usage error with a hint.
 */
export function accessToken(flag: string | undefined, env: string | undefined): string {
  const token =
    checkToken(flag, '--access-token') ??
    (env === undefined || env === '' ? undefined : checkToken(env, 'SVC_ACCESS_TOKEN'));
  if (token === undefined) {
    throw new UsageError('no access token: pass --access-token or set SVC_ACCESS_TOKEN', [
      '`svc connect exchange PUBLIC_TOKEN` gives one, with the grant id, when the end user finishes the Connect flow.',
    ]);
  }
  return token;
}
