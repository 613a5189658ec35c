// `svc reports verify ID` (1 billing unit a call): whether the statement looks authentic — the
// verdict in colour and the confidence — and each check run on it, passed or failed, with its
// severity.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { VerifyCheck, VerifyReply } from '../../api/replies/reports.js';
import { readPart, readReply, unread } from '../../api/replies/schema.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { otherFields } from '../../core/json/values.js';
import {
  fraction,
  ItemFields,
  paintAs,
  painted,
  recordList,
  words,
} from '../../core/output/cells.js';
import { formatCount } from '../../core/output/format.js';
import { cellText, withExtraColumns } from '../../core/output/generic.js';
import type { Column, ListView, Part, SectionsView } from '../../core/output/view.js';
import { type ReplyReading } from '../../service/reading.js';
import {
  designedView,
  factList,
  factValue,
  SEVERITY_COLOURS,
  titled,
  type ValueFact,
  VERIFY_COLOURS,
} from './lending-view.js';

export async function showVerify(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.verify, { report_id: id });
  const reply = await (await ctx.client()).request(call);
  await present(ctx, reply, {
    what: call.what,
    viewRecords: 'list items',
    view: (body, reading) => verifyView(body, reading, id),
  });
}

export function verifyView(body: unknown, reading: ReplyReading, id?: string): SectionsView {
  const r = readReply(reading, VerifyReply, body);
  // A documented field of another type is shown as it came.
  const value = factValue(r, unread(VerifyReply, body, r));
  const facts: ValueFact[] = [
    {
      key: 'verdict',
      header: 'Verdict',
      raw: value('verdict'),
      show: painted(VERIFY_COLOURS),
    },
    {
      key: 'confidence',
      header: 'Confidence',
      raw: value('confidence'),
      show: fraction,
    },
  ];
  const known = ['verdict', 'confidence'];
  const tables: Part[] = [];
  let hints: string[] | undefined;
  const checks = recordList(r?.checks);
  if (checks) {
    known.push('checks');
    const table = checksTable(checks);
    tables.push({ heading: 'Checks', view: table });
    const failed = table.rows.filter((r) => r.outcome === false).length;
    if (table.rows.length)
      hints = [`${formatCount(failed)} of ${formatCount(table.rows.length)} checks failed.`];
  }
  return designedView(factList(facts), tables, otherFields(body, known), {
    title: titled('Verification', id),
    hints,
  });
}

interface Check {
  check: unknown;
  /** As received. */
  passed: unknown;
  /** Whether it passed, when `passed` is a flag. */
  outcome: boolean | undefined;
  severity: unknown;
  rest: Record<string, unknown>;
}

export function checksTable(items: readonly unknown[]): ListView<Check> {
  const rows = items.map((item): Check => {
    const f = new ItemFields(item);
    return {
      check: f.take('check'),
      passed: f.take('passed'),
      outcome: readPart(VerifyCheck, item)?.passed,
      severity: f.take('severity'),
      rest: f.rest(),
    };
  });
  const columns: Column<Check>[] = [
    {
      key: 'check',
      header: 'CHECK',
      value: (r) => cellText(r.check),
      display: (r, paint) => words(r.check, paint),
      formatsValue: true,
      flex: true,
    },
    {
      key: 'passed',
      header: 'RESULT',
      value: (r) => cellText(r.passed),
      display: (r, paint) => {
        const passed = r.outcome;
        return passed === true
          ? paint.good('pass')
          : passed === false
            ? paint.bad('fail')
            : cellText(r.passed);
      },
    },
    {
      key: 'severity',
      header: 'SEVERITY',
      value: (r) => cellText(r.severity),
      // The severity of a failed check is what matters: a passed one's is dimmed.
      display: (r, paint) =>
        r.outcome === true
          ? paint.dim(cellText(r.severity))
          : paintAs(SEVERITY_COLOURS, r.severity, cellText(r.severity), paint),
    },
  ];
  return withExtraColumns<Check>(
    { kind: 'list', rows, columns, empty: 'The reply names no checks.' },
    (r) => r.rest,
  );
}
