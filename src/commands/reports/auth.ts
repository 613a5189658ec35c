// `svc reports auth ID` (also `svc auth ID`): the verified account numbers. Of this view the
// documents give the words (holder, account number, SWIFT/BIC) and two names (`swift_note`,
// `verification_status`).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type * as Reports from '../../api/replies/reports.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { pick, textOf } from '../../core/reading.js';
import { bankText } from './report-view.js';
import { factsView } from './show-view.js';

const AUTH_SWIFT = ['swift_bic', 'swift', 'bic', 'swift_code'];

export async function showAuth(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.auth, { report_id: id });
  const reply = await (await ctx.client()).request(call);
  await present<typeof Reports>(ctx, reply, {
    what: call.what,
    replies: () => import('../../api/replies/reports.js'),
    view: (body, reading, { readReply, AuthReply }) => {
      const r = readReply(reading, AuthReply, body);
      const swiftNote = textOf(r?.swift_note);
      const swift = textOf(pick(body, ...AUTH_SWIFT));
      return factsView(
        [
          {
            key: 'account_holder',
            header: 'Account holder',
            text: textOf(pick(body, 'account_holder')),
          },
          {
            key: 'account_number',
            header: 'Account number',
            text: textOf(pick(body, 'account_number')),
          },
          {
            key: 'bank',
            header: 'Bank',
            text: bankText(
              textOf(pick(body, 'bank', 'bank_name')),
              textOf(pick(body, 'bank_code')),
            ),
          },
          {
            key: 'swift_bic',
            header: 'SWIFT/BIC',
            text: swift ?? (swiftNote ? 'none' : undefined),
          },
          { key: 'swift_note', header: 'SWIFT note', text: swiftNote },
          {
            key: 'verification_status',
            header: 'Verification',
            text: textOf(r?.verification_status),
          },
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
          ...AUTH_SWIFT,
        ],
      );
    },
  });
}
