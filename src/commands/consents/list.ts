// `svc consents list`: the consents your organisation gave (the reply's shape is not shown).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { firstFieldsView, headedList, listRecords } from '../../core/output/unshown.js';

/**
 * The reply is not shown; a consent's fields are those it is created with and the creation's reply
 * shows (POST /v1/consents): the first columns of the CSV.
 */
const CONSENT_FIELDS = ['id', 'report_id', 'scopes', 'grantee_label', 'expires_at'];
/**
 * What a terminal shows of a consent (docs/reference/output.md, "Tables"): the others where there
 * is room, or with -o wide.
 */
const SHOWN = ['status', 'id', 'scopes', 'grantee_label'];

export async function listConsents(ctx: Context): Promise<void> {
  const call = target(ENDPOINTS.listConsents);
  const reply = await (await ctx.client()).request(call);
  await present(ctx, reply, {
    what: call.what,
    records: (body) => listRecords(body, 'data', 'consents'),
    fields: CONSENT_FIELDS,
    view: (body) =>
      headedList(
        firstFieldsView(body, ['status'], {
          empty: 'No consents.',
          list: ['data', 'consents'],
          documented: CONSENT_FIELDS,
          defaults: SHOWN,
        }),
        'Consents',
      ),
  });
}
