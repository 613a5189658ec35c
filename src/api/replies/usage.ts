// GET /v1/usage, as the service's documentation shows it: counters, none of them required.
import { number, object, text } from './schema.js';

/** In the order `svc usage` reads them: the `--debug` lines follow it. */
export const UsageReply = object({
  quota: number(),
  used: number(),
  remaining: number(),
  plan: text(),
  period: text(),
  resets_at: text(),
});

/**
 * What a quota error's hint reads: the Data API counter's own `resets_at` (no documented counter),
 * else the documented one.
 */
export const QuotaResetReply = object({
  data_api: object({ resets_at: text() }),
  resets_at: text(),
});

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply, unread } from './schema.js';
