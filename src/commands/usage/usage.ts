// `svc usage`: the documented counters (plan, quota, used, remaining, period, resets_at), and
// any other counter the service adds, listed after them.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { formatCount } from '../../core/output/format.js';
import { withRest } from '../../core/output/generic.js';
import type { Column } from '../../core/output/view.js';

export async function showUsage(ctx: Context): Promise<void> {
  const call = target(ENDPOINTS.usage);
  const reply = await (await ctx.client()).request(call);
  await present(ctx, reply, {
    what: call.what,
    replies: () => import('../../api/replies/usage.js'),
    view: (body, reading, { readReply, unread, UsageReply }) => {
      const reply = readReply(reading, UsageReply, body);
      const { plan, quota, used, remaining, period, resets_at: resetsAt } = reply ?? {};
      const u = {
        plan,
        quota,
        used,
        remaining:
          remaining ??
          (quota !== undefined && used !== undefined ? Math.max(0, quota - used) : undefined),
        period,
        resetsAt,
      };
      const fields: Column<typeof u>[] = [
        { key: 'plan', header: 'Plan', value: (x) => x.plan },
        {
          key: 'used',
          header: 'Used',
          value: (x) => x.used,
          display: (x) => usedText(x.used, x.quota),
        },
        {
          key: 'remaining',
          header: 'Remaining',
          value: (x) => x.remaining,
          display: (x, paint) => {
            if (x.remaining === undefined) return '';
            const text = formatCount(x.remaining);
            if (x.remaining <= 0) return paint.bad(text);
            return x.quota !== undefined && x.remaining < x.quota * 0.1 ? paint.warn(text) : text;
          },
        },
        { key: 'period', header: 'Period', value: (x) => x.period },
        // A time: shown in the local zone, and on a terminal how far off, by the renderer
        // (output/time.ts).
        { key: 'resets_at', header: 'Resets', value: (x) => x.resetsAt },
      ];
      return withRest({ kind: 'record', record: u, fields }, unread(UsageReply, body, reply));
    },
  });
}

function usedText(used: number | undefined, quota: number | undefined): string {
  if (used === undefined) return '';
  if (quota === undefined) return formatCount(used);
  const percent = quota > 0 ? ` (${Math.round((used / quota) * 100)}%)` : '';
  return `${formatCount(used)} of ${formatCount(quota)}${percent}`;
}
