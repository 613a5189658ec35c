// `svc consents data ID --token T`: the data a consent opens, read as its grantee does.
import type { Context, ReplyReader } from '../../core/context.js';
import { ApiError } from '../../core/errors.js';
import { scopedDataView } from '../scoped-data.js';
import { consentDataRequest } from './options.js';

/**
 * The data a consent opens, read as its grantee does: the token alone, no API key and no
 * Authorization header, so it works where no key is configured at all.
 */
export async function readConsentData(ctx: Context, id: string, flags: { token?: string }): Promise<void> {
  const { call, query } = consentDataRequest(id, flags.token);
  // Known from now on: masked in the --debug trace (its `token=` too), in errors and in any output.
  ctx.secrets.add(query.token);
  const client = await ctx.anonymousClient();
  let reply;
  try {
    reply = await client.request({ ...call, query });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      error.trouble = { kind: 'token-only' };
    }
    throw error;
  }
  const reader: ReplyReader = { what: call.what, view: (body, reading) => scopedDataView(body, reading, `Data of consent ${id}`) };
  await ctx.present(reply, reader);
}
