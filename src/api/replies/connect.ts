// The connect flow's replies, as documented: POST /v1/connect/requests shows `request_token` and
// `connect_url`; POST /v1/connect/exchange shows `grant_id`, `scopes` and `access_token`. None is
// required to print them; `--qr` and `--open` need `connect_url` and read it alone (a text).
import { anyBody, object, requiredText, text, textOrTexts } from './schema.js';

export const ConnectRequestReply = object({ request_token: text(), connect_url: text() });

/** What `--qr` and `--open` must have: the address, a text. */
export const ConnectUrlReply = anyBody({ connect_url: requiredText() });

/** In the order `svc connect exchange` reads them. */
export const ExchangeReply = object({
  scopes: textOrTexts(),
  grant_id: text(),
  access_token: text(),
});

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply } from './schema.js';
