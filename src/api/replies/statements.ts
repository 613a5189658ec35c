// GET /v1/statements, as documented: a `statements` list whose items show status, content_hash and
// verify_url. An id has no documented name.
import { field, list, loose, record } from './schema.js';

export const StatementsReply = record({
  statements: list(loose({ status: field(), content_hash: field(), verify_url: field() })),
});

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply } from './schema.js';
