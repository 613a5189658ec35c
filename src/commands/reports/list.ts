// `svc reports list`. Its one list is read by hand, not through a reply schema: a table of it
// into a pipe then runs no package but commander (the start-up tests hold it to that).
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import {
  booleanOf,
  isRecord,
  otherFields,
  pick,
  textOf,
  unreadFields,
} from '../../core/json/values.js';
import { formatCount } from '../../core/output/format.js';
import { listWithRest, withExtraColumns } from '../../core/output/generic.js';
import type { Column, ListView } from '../../core/output/view.js';
import type { ReplyReading } from '../../service/reading.js';
import { bankText } from './bank-text.js';
import { paintReportStatus, REPORT_STATUSES, type ReportStatus } from './status.js';

/** The fields of a report the documents show, in their order: the first columns of the CSV. */
const REPORT_FIELDS = ['report_id', 'status', 'bank_code', 'created_at'];

/** The most reports one request returns (the spec's page size maximum; --limit's, index.ts). */
const MAX_LIMIT = 100;

/** The list the command walks: a reply without it is exit 10, whatever the format. */
function reportsOf(body: unknown, reading: ReplyReading): unknown[] {
  if (!isRecord(body)) throw reading.wrong('', 'an object', body);
  const data = pick(body, 'data');
  if (!Array.isArray(data)) throw reading.wrong('data', 'a list', data);
  return data;
}

/** A documented field of an item, noted for --debug when absent. */
function documented(item: unknown, name: string, reading: ReplyReading): unknown {
  const value = pick(item, name);
  if (value === undefined) reading.lacks(`data[].${name}`);
  return value;
}

export async function listReports(
  ctx: Context,
  options: { limit?: number; status?: ReportStatus },
): Promise<void> {
  const { limit, status } = options;
  const client = await ctx.client();
  const call = target(ENDPOINTS.listReports);
  const reply = await client.request({ ...call, query: { limit, status } });
  await present(ctx, reply, {
    what: call.what,
    records: reportsOf,
    fields: REPORT_FIELDS,
    view: (body, reading) => {
      const rows = reportsOf(body, reading).map((item) => {
        const statement = pick(item, 'statement');
        const read = {
          report_id: textOf(documented(item, 'report_id', reading)),
          status: textOf(documented(item, 'status', reading)),
          bank_code: textOf(pick(item, 'bank_code') ?? pick(statement, 'bank_code')),
          // A bank's name beside its code is the same bank: one column shows both, as `reports get`
          // does.
          bank: textOf(pick(item, 'bank') ?? pick(statement, 'bank')),
          created_at: textOf(documented(item, 'created_at', reading)),
        };
        return { ...read, rest: unreadFields(item, ['statement'], read) };
      });
      type Row = (typeof rows)[number];
      const columns: Column<Row>[] = [
        { key: 'report_id', header: 'ID', value: (r) => r.report_id, keep: true },
        {
          key: 'status',
          header: 'STATUS',
          value: (r) => r.status,
          display: (r, paint) => paintReportStatus(r.status ?? '', paint),
        },
        {
          key: 'bank_code',
          header: 'BANK',
          value: (r) => bankText(r.bank, r.bank_code),
          also: ['bank', 'statement.bank_code', 'statement.bank'],
        },
        // A time: shown in the local zone by the renderer (output/time.ts).
        { key: 'created_at', header: 'CREATED', value: (r) => r.created_at },
      ];
      const list: ListView<Row> = {
        kind: 'list',
        rows,
        columns,
        empty: status
          ? `No ${status} reports.`
          : 'No reports yet. Upload a statement with `svc parse FILE`.',
      };
      // Fields of the items that no document shows get columns of their own: nothing is hidden.
      // `has_more` is said on stderr, with the way to the rest (moreReportsHint).
      const hasMore = booleanOf(pick(body, 'has_more'));
      return listWithRest(
        withExtraColumns(list, (r) => r.rest),
        otherFields(body, hasMore === undefined ? ['data'] : ['data', 'has_more']),
      );
    },
  });
  // --json carries has_more itself; every other output loses it (ndjson and CSV hold the items
  // alone).
  const listed = pick(reply.body, 'data');
  if (ctx.format !== 'json' && pick(reply.body, 'has_more') === true && Array.isArray(listed))
    ctx.err(moreReportsHint(listed.length, { limit, status }));
}

/**
 * What to do when the service has more reports than it sent. The documents show no cursor, so the
 * way on is a larger page (up to MAX_LIMIT) or a narrower list.
 */
function moreReportsHint(listed: number, flags: { limit?: number; status?: string }): string {
  const ways = [
    ...(flags.limit === undefined || flags.limit < MAX_LIMIT
      ? [`--limit ${MAX_LIMIT} lists up to ${MAX_LIMIT}`]
      : []),
    ...(flags.status === undefined
      ? [`--status ${REPORT_STATUSES.join('|')} narrows the list`]
      : []),
  ];
  const more = `More ${flags.status ? `${flags.status} ` : ''}reports exist than the ${formatCount(listed)} listed`;
  if (ways.length) return `${more}: ${ways.join(', ')}.`;
  return `${more}; --limit ${MAX_LIMIT} is the most one request returns, and the service documents no way to page past it.`;
}
