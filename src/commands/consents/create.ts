// `svc consents create REPORT_ID --scopes …`: share a report's data with a third party through a
// consent token, shown this once.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { ConsentReply } from '../../api/replies/consents.js';
import { readReply } from '../../api/replies/schema.js';
import type { Context } from '../../app/context.js';
import { otherFields } from '../../core/json/values.js';
import { shownText } from '../../core/output/format.js';
import { withRest } from '../../core/output/generic.js';
import type { Column, SectionsView } from '../../core/output/view.js';
import { ReplyReading } from '../../service/reading.js';
import { scopesText } from '../scoped-data.js';
import { presentSecretOnce } from '../tokens.js';
import { consentBody, type ConsentFlags } from './options.js';

const KNOWN = ['id', 'token', 'data_url', 'scopes', 'expires_at'];

export async function createConsent(
  ctx: Context,
  reportId: string,
  flags: ConsentFlags,
): Promise<void> {
  const json = consentBody(reportId, flags);
  const client = await ctx.client();
  const call = target(ENDPOINTS.createConsent);
  const reply = await client.request({ ...call, json });
  await presentSecretOnce(
    ctx,
    reply,
    { what: call.what, view: createdConsentView },
    {
      secrets: (body) => {
        const r = readReply(new ReplyReading(call.what), ConsentReply, body);
        return [r?.token, tokenOfUrl(r?.data_url)];
      },
      notes: (body) => {
        // From the reply, for the terminal: one line of printable text.
        const given = readReply(new ReplyReading(call.what), ConsentReply, body)?.id;
        const id = given ? shownText(given, ctx.secrets) : undefined;
        return [
          `this token gives whoever holds it the report's data (${json.scopes.join(', ')}) until it expires or is revoked; it is shown this once, so keep it and share it only with the grantee`,
          `Revoke it with \`svc consents revoke ${id ?? 'CONSENT_ID'}\`; the grantee reads the data with \`SVC_CONSENT_TOKEN=TOKEN svc consents data ${id ?? 'CONSENT_ID'}\`.`,
        ];
      },
    },
  );
}

/** The consent made: id, token, data URL, scopes, expiry, then anything else the reply carries. */
export function createdConsentView(body: unknown, reading: ReplyReading): SectionsView {
  const r = readReply(reading, ConsentReply, body);
  const c = {
    id: r?.id,
    token: r?.token,
    dataUrl: r?.data_url,
    scopes: scopesText(r?.scopes),
    expiresAt: r?.expires_at,
  };
  // The id, the token and the data URL are copied whole: each kept on one line.
  const fields: Column<typeof c>[] = [
    { key: 'id', header: 'Consent', value: (x) => x.id, keep: true },
    { key: 'token', header: 'Token', value: (x) => x.token, keep: true },
    { key: 'data_url', header: 'Data URL', value: (x) => x.dataUrl, keep: true },
    { key: 'scopes', header: 'Scopes', value: (x) => x.scopes },
    // A time: shown in the local zone, and how far off, by the renderer (output/time.ts).
    { key: 'expires_at', header: 'Expires', value: (x) => x.expiresAt },
  ];
  return withRest({ kind: 'record', record: c, fields }, otherFields(body, KNOWN));
}

/** The token a data URL carries in its query, if any: a secret as much as the token field. */
function tokenOfUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).searchParams.get('token') ?? undefined;
  } catch {
    return /[?&]token=([^&#\s]+)/.exec(url)?.[1];
  }
}
