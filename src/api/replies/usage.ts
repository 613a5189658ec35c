// GET /v1/usage, as the service's documentation shows it: counters, none of them required.
import { field, loose } from '../../core/reply-schema.js';

/** In the order `svc usage` reads them: the `--debug` lines follow it. */
export const UsageReply = loose({
  quota: field(),
  used: field(),
  remaining: field(),
  plan: field(),
  period: field(),
  resets_at: field(),
});

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply } from '../../core/reply-schema.js';
