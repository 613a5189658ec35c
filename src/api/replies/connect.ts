// The connect flow's replies, as documented: POST /v1/connect/requests shows `request_token` and
// `connect_url`; POST /v1/connect/exchange shows `grant_id`, `scopes` and `access_token`. None is
// required to print them; `--qr` and `--open` need `connect_url` and read it alone (a text).
import { field, loose } from './schema.js';

export const ConnectRequestReply = loose({ request_token: field(), connect_url: field() });

/** In the order `svc connect exchange` reads them. */
export const ExchangeReply = loose({ scopes: field(), grant_id: field(), access_token: field() });

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply } from './schema.js';
