import { statementList, type Statement } from '../../api/schemas.js';
import { parseShape } from '../../api/shape.js';
import type { Context } from '../../core/context.js';
import { formatDateTime } from '../../core/output/format.js';
import { checkChoice } from '../args.js';

export async function listStatements(ctx: Context, options: { status?: string }): Promise<void> {
  const status = checkChoice(options.status, '--status', ['issued', 'revoked'] as const);
  const client = await ctx.client();
  const reply = await client.request({ method: 'GET', path: '/v1/statements', query: { status } });
  await ctx.print(reply, parseShape(statementList, reply, 'GET /v1/statements'), (list) => ({
    kind: 'list',
    items: (reply.body as { statements: unknown[] }).statements,
    rows: list.statements,
    empty: status ? `No ${status} statements.` : 'No statements issued yet.',
    columns: [
      { key: 'statement_id', header: 'STATEMENT', value: (s: Statement) => s.statement_id },
      {
        key: 'status',
        header: 'STATUS',
        value: (s) => s.status,
        display: (s, paint) => (s.status === 'issued' ? paint.good(s.status) : paint.bad(s.status)),
      },
      { key: 'account_holder', header: 'HOLDER', value: (s) => s.account_holder, flex: true },
      { key: 'issued_at', header: 'ISSUED', value: (s) => s.issued_at, display: (s) => formatDateTime(s.issued_at) },
      { key: 'content_hash', header: 'CONTENT HASH', value: (s) => s.content_hash, display: (s) => `${s.content_hash.slice(0, 16)}…` },
      { key: 'verify_url', header: 'VERIFY AT', value: (s) => s.verify_url },
    ],
  }));
}
