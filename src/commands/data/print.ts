// Prints a dataset reply in the chosen format. Tables carry the attribution as their footer (under
// the table on a terminal, on stderr in a pipe); CSV stays clean for spreadsheets, so the
// attribution goes to stderr instead. The reply is read through its schema
// (src/api/replies/data.ts), loaded only when the reply is read: --json loads none.
import type * as Data from '../../api/replies/data.js';
import type { Context } from '../../app/context.js';
import { forPeople, present } from '../../app/present.js';
import type { Reply } from '../../core/output/render.js';
import type { View } from '../../core/output/view.js';
import { ReplyReading } from '../../service/reading.js';
import { attributionLines, type DatasetRead } from './views.js';

/** How a data command reads its reply: the reply's schema, its records, its view. */
export interface DatasetReader {
  /** The request, as `GET /v1/data/cbank/cpi/latest`. */
  what: string;
  /** The reply's schema, of those data.ts declares. */
  schema: (replies: typeof Data) => Data.Dataset;
  records: (body: unknown) => unknown[] | undefined;
  view: (body: unknown, r: DatasetRead, schemas: typeof Data) => View;
}

export async function printDataset(
  ctx: Context,
  reply: Reply,
  reader: DatasetReader,
): Promise<void> {
  await present<typeof Data>(ctx, reply, {
    what: reader.what,
    replies: () => import('../../api/replies/data.js'),
    records: reader.records,
    view: (body, reading, replies) =>
      reader.view(body, replies.readReply(reading, reader.schema(replies), body), replies),
  });
  if (ctx.format === 'csv')
    for (const line of await attributionOf(ctx, reply.body, reader)) ctx.err(line);
}

/**
 * The attribution lines of a reply shown apart from its table (CSV, a chart), made printable;
 * `label` writes its date.
 */
export async function attributionOf(
  ctx: Context,
  body: unknown,
  reader: Pick<DatasetReader, 'what' | 'schema'>,
  label?: (date: string) => string,
): Promise<string[]> {
  const replies = await import('../../api/replies/data.js');
  return attributionLines(
    replies.readReply(new ReplyReading(reader.what), reader.schema(replies), forPeople(ctx, body)),
    label,
  );
}
