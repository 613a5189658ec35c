import { report, type Report } from '../../api/schemas.js';
import { parseShape } from '../../api/shape.js';
import type { Context } from '../../core/context.js';
import { formatCount, formatDateTime } from '../../core/output/format.js';
import type { RecordView } from '../../core/output/view.js';
import { idPath } from '../args.js';
import { paintReportStatus } from './status.js';

export async function getReport(ctx: Context, id: string): Promise<void> {
  const path = idPath('/v1/reports', id);
  const client = await ctx.client();
  const reply = await client.request({ method: 'GET', path });
  await ctx.print(reply, parseShape(report, reply, `GET ${path}`), reportView);
}

export function reportView(r: Report): RecordView<Report> {
  const period = (x: Report) => (x.statement_period ? `${x.statement_period.from} → ${x.statement_period.to}` : '');
  return {
    kind: 'record',
    record: r,
    fields: [
      { key: 'report_id', header: 'Report', value: (x) => x.report_id },
      { key: 'status', header: 'Status', value: (x) => x.status, display: (x, paint) => paintReportStatus(x.status, paint) },
      { key: 'bank_code', header: 'Bank', value: (x) => x.bank_code, display: (x) => (x.bank_name ? `${x.bank_name} (${x.bank_code})` : x.bank_code) },
      { key: 'account_holder', header: 'Account holder', value: (x) => x.account_holder },
      { key: 'account_number', header: 'Account number', value: (x) => x.account_number },
      { key: 'statement_period', header: 'Period', value: period },
      { key: 'transaction_count', header: 'Transactions', value: (x) => x.transaction_count, display: (x) => formatCount(x.transaction_count) },
      { key: 'pages', header: 'Pages', value: (x) => x.pages },
      { key: 'file_name', header: 'File', value: (x) => x.file_name },
      { key: 'created_at', header: 'Created', value: (x) => x.created_at, display: (x) => formatDateTime(x.created_at) },
      { key: 'completed_at', header: 'Completed', value: (x) => x.completed_at, display: (x) => formatDateTime(x.completed_at) },
      ...(r.error
        ? [{ key: 'error', header: 'Error', value: (x: Report) => (x.error ? `${x.error.error_code}: ${x.error.error_message}` : '') }]
        : []),
    ],
  };
}
