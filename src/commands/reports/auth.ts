// `svc reports auth ID` (also `svc auth ID`): the verified account numbers. Of this view the
// documents give the words (holder, account number, SWIFT/BIC) and two names (`swift_note`,
// `verification_status`).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type * as Reports from '../../api/replies/reports.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { bankText } from './report-view.js';
import { factsView } from './show-view.js';

export async function showAuth(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.auth, { report_id: id });
  const reply = await (await ctx.client()).request(call);
  await present<typeof Reports>(ctx, reply, {
    what: call.what,
    replies: () => import('../../api/replies/reports.js'),
    view: (body, reading, { readReply, AuthReply, SWIFT_NAMES }) => {
      const r = readReply(reading, AuthReply, body);
      const swiftNote = r?.swift_note;
      return factsView(
        [
          { key: 'account_holder', header: 'Account holder', text: r?.account_holder },
          { key: 'account_number', header: 'Account number', text: r?.account_number },
          { key: 'bank', header: 'Bank', text: bankText(r?.bank, r?.bank_code) },
          {
            key: 'swift_bic',
            header: 'SWIFT/BIC',
            text: r?.swift_bic ?? (swiftNote ? 'none' : undefined),
          },
          { key: 'swift_note', header: 'SWIFT note', text: swiftNote },
          { key: 'verification_status', header: 'Verification', text: r?.verification_status },
        ],
        body,
        [
          'account_holder',
          'account_number',
          'bank',
          'bank_name',
          'bank_code',
          'swift_note',
          'verification_status',
          ...SWIFT_NAMES,
        ],
      );
    },
  });
}
