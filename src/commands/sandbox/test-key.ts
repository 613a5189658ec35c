// The sandbox refuses live keys. The CLI refuses them first, so a live key never reaches it.
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../app/context.js';
import { PermissionDeniedError } from '../../service/errors.js';
import { keyMode, maskKey } from '../../service/keys.js';

/** The API client, once the key in force is known not to be a live key. */
export async function sandboxClient(ctx: Context): Promise<ApiClient> {
  const client = await ctx.client();
  const { apiKey } = await ctx.config.settings();
  if (apiKey !== undefined && keyMode(apiKey) === 'live') {
    throw new PermissionDeniedError(
      `the sandbox needs a test key (svc_sk_test_...); the key in force is a live key (${maskKey(apiKey)})`,
      [
        'Set SVC_API_KEY to a test key, or use a profile that has one: svc --profile NAME sandbox …',
      ],
    );
  }
  return client;
}
