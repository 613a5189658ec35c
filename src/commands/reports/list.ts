import { reportList, type ReportSummary } from '../../api/schemas.js';
import { parseShape } from '../../api/shape.js';
import type { Context } from '../../core/context.js';
import { formatDateTime } from '../../core/output/format.js';
import { checkChoice, checkInteger } from '../args.js';
import { paintReportStatus } from './status.js';

export async function listReports(ctx: Context, options: { limit?: string; status?: string }): Promise<void> {
  const limit = checkInteger(options.limit, '--limit', 1, 100);
  const status = checkChoice(options.status, '--status', ['complete', 'processing', 'failed'] as const);
  const client = await ctx.client();
  const reply = await client.request({ method: 'GET', path: '/v1/reports', query: { limit, status } });
  const list = parseShape(reportList, reply, 'GET /v1/reports');
  await ctx.print(reply, list, (data) => ({
    kind: 'list',
    items: (reply.body as { data: unknown[] }).data,
    rows: data.data,
    empty: status ? `No ${status} reports.` : 'No reports yet. Upload a statement with `svc parse FILE`.',
    columns: [
      { key: 'report_id', header: 'ID', value: (r: ReportSummary) => r.report_id },
      { key: 'status', header: 'STATUS', value: (r) => r.status, display: (r, paint) => paintReportStatus(r.status, paint) },
      { key: 'bank_code', header: 'BANK', value: (r) => r.bank_code },
      { key: 'created_at', header: 'CREATED', value: (r) => r.created_at, display: (r) => formatDateTime(r.created_at) },
    ],
  }));
}
