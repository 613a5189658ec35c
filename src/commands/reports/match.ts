import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { UsageError } from '../../core/errors.js';
import { otherFields } from '../../core/json/values.js';
import { withRest } from '../../core/output/generic.js';
import type { Column } from '../../core/output/view.js';
import { paintMatchResult } from './status.js';

const KNOWN = ['match_score', 'result', 'statement_name', 'reasons'];

export async function matchName(
  ctx: Context,
  id: string,
  options: { name: string },
): Promise<void> {
  const call = target(ENDPOINTS.matchName, { report_id: id });
  const name = options.name.trim();
  if (name === '')
    throw new UsageError(
      '--name is empty: give the claimed name, e.g. --name "Ram Bahadur Shrestha"',
    );
  const reply = await (await ctx.client()).request({ ...call, json: { name } });
  await present(ctx, reply, {
    what: call.what,
    replies: () => import('../../api/replies/reports.js'),
    view: (body, reading, { readReply, MatchReply }) => {
      const r = readReply(reading, MatchReply, body);
      const m = {
        score: r?.match_score,
        result: r?.result,
        statementName: r?.statement_name,
        reasons: r?.reasons ?? [],
      };
      const fields: Column<typeof m>[] = [
        {
          key: 'match_score',
          header: 'Score',
          value: (x) => x.score,
          display: (x) => (x.score === undefined ? '' : `${x.score} / 100`),
        },
        {
          key: 'result',
          header: 'Result',
          value: (x) => x.result,
          display: (x, paint) => paintMatchResult(x.result ?? '', paint),
        },
        { key: 'claimed_name', header: 'Claimed name', value: () => name },
        { key: 'statement_name', header: 'Statement name', value: (x) => x.statementName },
        {
          key: 'reasons',
          header: 'Reasons',
          value: (x) => x.reasons.join('; '),
          display: (x) => x.reasons.map((reason) => `• ${reason}`).join('\n'),
        },
      ];
      return withRest({ kind: 'record', record: m, fields }, otherFields(body, KNOWN));
    },
  });
}
