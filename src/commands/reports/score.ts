// `svc reports score ID` (1 billing unit a call): the score out of 1000 and its band in colour, and
// the factors behind it with their signed impacts, the largest (in absolute value) first.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { ScoreFactor, ScoreReply } from '../../api/replies/reports.js';
import { readPart, readReply, unread } from '../../api/replies/schema.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { otherFields } from '../../core/json/values.js';
import {
  contribution,
  ItemFields,
  outOf,
  paintAs,
  painted,
  recordList,
  words,
} from '../../core/output/cells.js';
import { cellText, withExtraColumns } from '../../core/output/generic.js';
import type { Column, ListView, Part, SectionsView } from '../../core/output/view.js';
import { type ReplyReading } from '../../service/reading.js';
import {
  BAND_COLOURS,
  designedView,
  factList,
  factValue,
  titled,
  type ValueFact,
} from './lending-view.js';

export async function showScore(ctx: Context, id: string): Promise<void> {
  const call = target(ENDPOINTS.score, { report_id: id });
  const reply = await (await ctx.client()).request(call);
  await present(ctx, reply, {
    what: call.what,
    viewRecords: 'list items',
    view: (body, reading) => scoreView(body, reading, id),
  });
}

export function scoreView(body: unknown, reading: ReplyReading, id?: string): SectionsView {
  const r = readReply(reading, ScoreReply, body);
  // A documented field of another type is shown as it came.
  const value = factValue(r, unread(ScoreReply, body, r));
  const band = r?.band;
  const facts: ValueFact[] = [
    // The score takes the colour of its band.
    {
      key: 'score',
      header: 'Score',
      raw: value('score'),
      show: (raw, paint) => paintAs(BAND_COLOURS, band, outOf(1000)(raw, paint), paint),
    },
    { key: 'band', header: 'Band', raw: value('band'), show: painted(BAND_COLOURS) },
  ];
  const known = ['score', 'band'];
  const tables: Part[] = [];
  const factors = recordList(r?.factors);
  if (factors) {
    known.push('factors');
    tables.push({ heading: 'Factors', view: factorsTable(factors) });
  }
  return designedView(factList(facts), tables, otherFields(body, known), {
    title: titled('Score', id),
  });
}

interface Factor {
  factor: unknown;
  impact: unknown;
  detail: unknown;
  rest: Record<string, unknown>;
}

/**
 * Factors by the size of their impact, largest first; those without a numeric impact last, in the
 * reply's order.
 */
export function factorsTable(items: readonly unknown[]): ListView<Factor> {
  const size = (item: unknown) => {
    const n = readPart(ScoreFactor, item)?.impact;
    return n === undefined ? -1 : Math.abs(n);
  };
  const rows = items
    .map((item, i) => ({ item, i, size: size(item) }))
    .sort((a, b) => b.size - a.size || a.i - b.i)
    .map(({ item }): Factor => {
      const f = new ItemFields(item);
      return {
        factor: f.take('factor'),
        impact: f.take('impact'),
        detail: f.take('detail'),
        rest: f.rest(),
      };
    });
  const columns: Column<Factor>[] = [
    {
      key: 'factor',
      header: 'FACTOR',
      value: (r) => cellText(r.factor),
      display: (r, paint) => words(r.factor, paint),
      formatsValue: true,
    },
    {
      key: 'impact',
      header: 'IMPACT',
      value: (r) => cellText(r.impact),
      display: (r, paint) => contribution(r.impact, paint),
      formatsValue: true,
      align: 'right',
      keep: true,
    },
    // `detail` is optional: its column goes only where a factor has one.
    ...(rows.some((r) => r.detail !== undefined)
      ? [{ key: 'detail', header: 'DETAIL', value: (r: Factor) => cellText(r.detail), flex: true }]
      : []),
  ];
  return withExtraColumns<Factor>(
    { kind: 'list', rows, columns, empty: 'The reply names no factors.' },
    (r) => r.rest,
  );
}
