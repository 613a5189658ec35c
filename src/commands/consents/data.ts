// `svc consents data ID`: the data a consent opens, read as its grantee does.
import type { Context } from '../../app/context.js';
import { present, type ReplyReader } from '../../app/present.js';
import { UsageError } from '../../core/errors.js';
import { readEnv } from '../../service/environment.js';
import { ApiError } from '../../service/errors.js';
import { scopedDataView } from '../scoped-data.js';
import { checkToken, secretFromStdin, visibleFlagWarning } from '../tokens.js';
import { consentDataRequest } from './options.js';

export interface ConsentDataFlags {
  token?: string;
  tokenStdin?: boolean;
}

/**
 * The data a consent opens, read as its grantee does: the token alone, no API key and no
 * Authorization header, so it works where no key is configured at all.
 */
export async function readConsentData(
  ctx: Context,
  id: string,
  flags: ConsentDataFlags,
): Promise<void> {
  // The id is checked first: a bad one is refused before a token is read from stdin.
  const call = consentDataRequest(id);
  const query = { token: await consentToken(ctx, flags) };
  // Known from now on: masked in the --debug trace (its `token=` too), in errors and in any output.
  ctx.secrets.add(query.token);
  const client = await ctx.config.anonymousClient();
  let reply;
  try {
    reply = await client.request({ ...call, query });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      error.trouble = { kind: 'token-only' };
    }
    throw error;
  }
  const reader: ReplyReader = {
    what: call.what,
    viewRecords: 'list items',
    view: (body, reading) => scopedDataView(body, reading, `Data of consent ${id}`),
  };
  await present(ctx, reply, reader);
}

/**
 * The consent token: --token (with a warning: `ps` shows it), --token-stdin, else
 * SVC_CONSENT_TOKEN.
 */
async function consentToken(ctx: Context, flags: ConsentDataFlags): Promise<string> {
  if (flags.token !== undefined && flags.tokenStdin)
    throw new UsageError('--token and --token-stdin both give the consent token: pass one');
  if (flags.token !== undefined) {
    const token = checkToken(flags.token, '--token')!;
    ctx.secrets.add(token);
    ctx.warn(visibleFlagWarning('--token', 'SVC_CONSENT_TOKEN or --token-stdin'));
    return token;
  }
  if (flags.tokenStdin)
    return checkToken(await secretFromStdin(ctx.io.stdin, '--token-stdin'), '--token-stdin')!;
  const env = readEnv(ctx.io.env, 'SVC_CONSENT_TOKEN');
  if (env !== undefined && env !== '') return checkToken(env, 'SVC_CONSENT_TOKEN')!;
  throw new UsageError(
    'no consent token: set SVC_CONSENT_TOKEN, or pass --token-stdin (or --token, which other users see in the process list)',
    ["Reading a consent's data takes the token its owner shared."],
  );
}
