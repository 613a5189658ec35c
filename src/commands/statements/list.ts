import { ENDPOINTS, target } from '../../api/endpoints.js';
import type * as Replies from '../../api/replies/statements.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { otherFields } from '../../core/json/values.js';
import { listWithRest, withExtraColumns } from '../../core/output/generic.js';
import type { Column, ListView } from '../../core/output/view.js';
import { type ReplyReading } from '../../service/reading.js';

const STATEMENT_FIELDS = ['content_hash', 'verify_url', 'status'];
export async function listStatements(ctx: Context, options: { status?: string }): Promise<void> {
  const { status } = options;
  const client = await ctx.client();
  const call = target(ENDPOINTS.statements);
  const reply = await client.request({ ...call, query: { status } });
  const statementsOf = (
    body: unknown,
    reading: ReplyReading,
    { readReply, StatementRecords, StatementsReply }: typeof Replies,
  ) => {
    // Read as documented for the walk and the --debug notes; the records are the items as received.
    readReply(reading, StatementsReply, body);
    return readReply(reading, StatementRecords, body).statements;
  };
  await present(ctx, reply, {
    what: call.what,
    replies: () => import('../../api/replies/statements.js'),
    records: statementsOf,
    fields: STATEMENT_FIELDS,
    view: (body, reading, replies) => {
      const { readReply, unread, Statement, StatementsReply, ID_NAMES } = replies;
      const statements = readReply(reading, StatementsReply, body).statements;
      const rows = statementsOf(body, reading, replies).map((item, i) => {
        const s = statements[i];
        return {
          status: s?.status,
          content_hash: s?.content_hash,
          verify_url: s?.verify_url,
          id: s?.statement_id,
          rest: otherFields(unread(Statement, item, s), ID_NAMES),
        };
      });
      type Row = (typeof rows)[number];
      const columns: Column<Row>[] = [
        // Where there is room beside the address (which holds it, as the service writes it).
        ...(rows.some((r) => r.id !== undefined)
          ? [
              {
                key: 'statement_id',
                header: 'STATEMENT',
                value: (r: Row) => r.id,
                keep: true,
                show: 'room' as const,
                also: ['id'],
              },
            ]
          : []),
        {
          key: 'status',
          header: 'STATUS',
          value: (r) => r.status,
          // Left out before the address on a narrow terminal.
          rank: 1,
          display: (r, paint) =>
            r.status === 'issued'
              ? paint.good('issued')
              : r.status === 'revoked'
                ? paint.bad('revoked')
                : (r.status ?? ''),
        },
        // Whole in a pipe (a script may compare it) and with -o wide; a terminal keeps to the
        // address people open.
        {
          key: 'content_hash',
          header: 'CONTENT HASH',
          value: (r) => r.content_hash,
          flex: 'cut',
          show: 'wide',
        },
        { key: 'verify_url', header: 'VERIFY AT', value: (r) => r.verify_url, keep: true },
      ];
      const list: ListView<Row> = {
        kind: 'list',
        rows,
        columns,
        empty: status ? `No ${status} statements.` : 'No statements issued yet.',
      };
      return listWithRest(
        withExtraColumns(list, (r) => r.rest),
        otherFields(body, ['statements']),
      );
    },
  });
}
