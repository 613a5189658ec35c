// `svc connect exchange PUBLIC_TOKEN`: trade the public token a finished Connect flow handed to
// your page for the grant's access token, which `svc grants data` reads the data with.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { ExchangeReply } from '../../api/replies/connect.js';
import { readReply } from '../../api/replies/schema.js';
import type { Context } from '../../app/context.js';
import { otherFields } from '../../core/json/values.js';
import { shownText } from '../../core/output/format.js';
import { withRest } from '../../core/output/generic.js';
import type { Column, SectionsView } from '../../core/output/view.js';
import { ReplyReading } from '../../service/reading.js';
import { scopesText } from '../scoped-data.js';
import { checkToken, presentSecretOnce } from '../tokens.js';

const KNOWN = ['grant_id', 'access_token', 'scopes'];

export async function exchangePublicToken(ctx: Context, publicToken: string): Promise<void> {
  const token = checkToken(publicToken, 'the public token')!;
  // A secret like a key: masked in --debug traces, errors and any output from now on.
  ctx.secrets.add(token);
  const client = await ctx.client();
  const call = target(ENDPOINTS.connectExchange);
  const reply = await client.request({ ...call, json: { public_token: token } });
  await presentSecretOnce(
    ctx,
    reply,
    { what: call.what, view: exchangeView },
    {
      secrets: (body) => [
        readReply(new ReplyReading(call.what), ExchangeReply, body)?.access_token,
      ],
      notes: (body) => {
        const given = readReply(new ReplyReading(call.what), ExchangeReply, body)?.grant_id;
        const grant = given ? shownText(given, ctx.secrets) : 'GRANT_ID';
        return [
          'this access token reads the data the end user granted, with your API key; it is shown this once, so keep it like a key',
          `Pass it as SVC_ACCESS_TOKEN: SVC_ACCESS_TOKEN=<the access token> svc grants data ${grant}`,
        ];
      },
    },
  );
}

/** The grant: its id, scopes and access token, then anything else the reply carries. */
export function exchangeView(body: unknown, reading: ReplyReading): SectionsView {
  const r = readReply(reading, ExchangeReply, body);
  const g = {
    grantId: r?.grant_id,
    scopes: scopesText(r?.scopes),
    accessToken: r?.access_token,
  };
  // The grant's id and its access token are copied whole: each kept on one line.
  const fields: Column<typeof g>[] = [
    { key: 'grant_id', header: 'Grant', value: (x) => x.grantId, keep: true },
    { key: 'scopes', header: 'Scopes', value: (x) => x.scopes },
    { key: 'access_token', header: 'Access token', value: (x) => x.accessToken, keep: true },
  ];
  return withRest({ kind: 'record', record: g, fields }, otherFields(body, KNOWN));
}
