// GET /v1/statements, as documented: a `statements` list whose items show status, content_hash and
// verify_url. An id has no documented name: the likely ones are read.
import { list, listAsReceived, named, object, record, text, undocumented } from './schema.js';

export const Statement = object({
  status: text(),
  content_hash: text(),
  verify_url: text(),
  statement_id: undocumented(named(text(), 'statement_id', 'id')),
});

/** The names an id comes under. */
export const ID_NAMES = ['statement_id', 'id'];

export const StatementsReply = record({ statements: list(Statement) });

/** The list as received: the records of -o csv and -o ndjson. */
export const StatementRecords = record({ statements: listAsReceived() });

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply, unread } from './schema.js';
