import { ENDPOINTS, requestUrl, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { requireBaseUrl } from '../../config/resolve.js';
import { genericView } from '../../core/output/generic.js';
import { topLists, withPipeItems } from '../../core/output/unshown.js';
import { storeReply } from '../../service/cache.js';
import { sandboxClient } from './test-key.js';

/**
 * The list's shape is not documented: it is shown as it comes, and kept for completion; -o csv and
 * -o ndjson write a record per scenario of the lists it holds (report and error scenarios).
 */
export async function listScenarios(ctx: Context): Promise<void> {
  const client = await sandboxClient(ctx);
  const call = target(ENDPOINTS.sandboxScenarios);
  const reply = await client.request(call);
  await rememberForCompletion(ctx, reply.raw);
  await present(ctx, reply, {
    what: call.what,
    viewRecords: 'list items',
    // Each list the reply holds (report and error scenarios) is scenarios: a pipe gets them as one
    // table.
    view: (body) =>
      withPipeItems(
        genericView(body, { empty: 'The sandbox offers no scenarios.' }),
        body,
        topLists(body),
      ),
  });
}

/** Keeps the list in the reply cache, where `svc sandbox create --scenario <TAB>` finds it. */
async function rememberForCompletion(ctx: Context, raw: string): Promise<void> {
  const entry = {
    url: requestUrl(
      requireBaseUrl(await ctx.config.settings()),
      ENDPOINTS.sandboxScenarios.path,
    ).toString(),
    fetched_at: new Date(ctx.now()).toISOString(),
    as_of: null,
    raw,
  };
  storeReply(
    await ctx.config.replyCache(),
    entry,
    (text) => ctx.secrets.mask(text) !== text,
    (message) => ctx.warn(message),
  );
}
