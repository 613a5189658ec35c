import { usage } from '../../api/schemas.js';
import { parseShape } from '../../api/shape.js';
import type { Context } from '../../core/context.js';
import { formatCount, formatDateTime } from '../../core/output/format.js';

type Quota = { name: string; used: number; limit: number | null; resets_at?: string | null };

const QUOTA_LABELS: Record<string, string> = {
  parse: 'Parses',
  data_api: 'Data API calls',
  merchant_resolve: 'Merchant lookups (billing units)',
};

export async function showUsage(ctx: Context): Promise<void> {
  const client = await ctx.client();
  const reply = await client.request({ method: 'GET', path: '/v1/usage' });
  await ctx.print(reply, parseShape(usage, reply, 'GET /v1/usage'), (u) => ({
    kind: 'list',
    title: `${u.organization_name ?? u.organization_id} · plan ${u.plan} · ${u.environment} · ${u.period_start.slice(0, 10)} → ${u.period_end.slice(0, 10)}`,
    items: (reply.body as { quotas: unknown[] }).quotas,
    rows: u.quotas,
    columns: [
      { key: 'name', header: 'QUOTA', value: (q: Quota) => q.name, display: (q) => QUOTA_LABELS[q.name] ?? q.name },
      { key: 'used', header: 'USED', value: (q) => q.used, display: (q) => formatCount(q.used), align: 'right' },
      { key: 'limit', header: 'LIMIT', value: (q) => q.limit, display: (q, paint) => (q.limit === null ? paint.dim('no limit') : formatCount(q.limit)), align: 'right' },
      {
        key: 'remaining',
        header: 'LEFT',
        value: (q) => (q.limit === null ? null : Math.max(0, q.limit - q.used)),
        display: (q, paint) => {
          if (q.limit === null) return '';
          const left = Math.max(0, q.limit - q.used);
          const text = formatCount(left);
          return left === 0 ? paint.bad(text) : left < q.limit * 0.1 ? paint.warn(text) : text;
        },
        align: 'right',
      },
      { key: 'resets_at', header: 'RESETS', value: (q) => q.resets_at, display: (q) => formatDateTime(q.resets_at) },
    ],
  }));
}
