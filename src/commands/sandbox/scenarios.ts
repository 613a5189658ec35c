import { scenarioList, type Scenario } from '../../api/sandbox-schemas.js';
import { parseShape } from '../../api/shape.js';
import type { Context } from '../../core/context.js';
import { sandboxClient } from './test-key.js';

const PATH = '/v1/sandbox/scenarios';

export async function listScenarios(ctx: Context): Promise<void> {
  const client = await sandboxClient(ctx);
  const reply = await client.request({ method: 'GET', path: PATH });
  const list = parseShape(scenarioList, reply, `GET ${PATH}`);
  await rememberForCompletion(ctx, reply.raw);
  await ctx.print(reply, list, (l) => ({
    kind: 'list',
    items: (reply.body as { data: unknown[] }).data,
    rows: l.data,
    empty: 'The sandbox offers no scenarios.',
    columns: [
      {
        key: 'name',
        header: 'SCENARIO',
        value: (s: Scenario) => s.name,
        display: (s, paint) => (s.default === true ? `${s.name} ${paint.dim('(default)')}` : s.name),
      },
      {
        key: 'status',
        header: 'OUTCOME',
        value: (s) => s.status,
        // A failed scenario is shown by the error its report fails with.
        display: (s, paint) => (s.status === 'failed' ? paint.bad(s.error_code ?? 'failed') : paint.good(s.status)),
      },
      { key: 'description', header: 'DESCRIPTION', value: (s) => s.description, flex: true },
    ],
  }));
}

/** Keeps the list in the reply cache, where `svc sandbox create --scenario <TAB>` finds it. */
async function rememberForCompletion(ctx: Context, raw: string): Promise<void> {
  const [{ ReplyCache, storeReply }, { cacheDir }, { requireBaseUrl }] = await Promise.all([
    import('../../core/cache.js'),
    import('../../config/paths.js'),
    import('../../config/resolve.js'),
  ]);
  const settings = await ctx.settings();
  const entry = { url: new URL(requireBaseUrl(settings) + PATH).toString(), fetched_at: new Date().toISOString(), as_of: null, raw };
  storeReply(new ReplyCache(cacheDir(ctx.io.env), settings.profile), entry, settings.apiKey, (message) => ctx.warn(message));
}
