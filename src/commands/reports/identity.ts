// `svc reports identity ID`: the identity view, documented field by field.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type * as Reports from '../../api/replies/reports.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { bankText, periodText } from './report-view.js';
import { factsView } from './show-view.js';

export async function showIdentity(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.identity, { report_id: id });
  const reply = await (await ctx.client()).request(call);
  await present<typeof Reports>(ctx, reply, {
    what: call.what,
    replies: () => import('../../api/replies/reports.js'),
    view: (body, reading, { readReply, IdentityReply }) => {
      const r = readReply(reading, IdentityReply, body);
      return factsView(
        [
          { key: 'account_holder', header: 'Account holder', text: r?.account_holder },
          { key: 'account_number', header: 'Account number', text: r?.account_number },
          { key: 'bank', header: 'Bank', text: bankText(r?.bank, r?.bank_code) },
          { key: 'currency', header: 'Currency', text: r?.currency },
          { key: 'period', header: 'Period', text: periodText(r?.period) },
        ],
        body,
        [
          'account_holder',
          'account_number',
          'bank',
          'bank_code',
          'currency',
          'period',
          'statement_period',
        ],
      );
    },
  });
}
