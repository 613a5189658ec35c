import { nameMatch, type NameMatch } from '../../api/schemas.js';
import { parseShape } from '../../api/shape.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { idPath } from '../args.js';
import { paintMatchResult } from './status.js';

export async function matchName(ctx: Context, id: string, options: { name: string }): Promise<void> {
  const path = idPath('/v1/reports', id, '/identity/match');
  const name = options.name.trim();
  if (name === '') throw new UsageError('--name is empty: give the claimed name, e.g. --name "Ram Bahadur Shrestha"');
  const client = await ctx.client();
  const reply = await client.request({ method: 'POST', path, json: { name } });
  await ctx.print(reply, parseShape(nameMatch, reply, `POST ${path}`), (m) => ({
    kind: 'record',
    record: m,
    fields: [
      { key: 'match_score', header: 'Score', value: (x: NameMatch) => x.match_score, display: (x) => `${x.match_score} / 100` },
      { key: 'result', header: 'Result', value: (x) => x.result, display: (x, paint) => paintMatchResult(x.result, paint) },
      { key: 'claimed_name', header: 'Claimed name', value: () => name },
      { key: 'statement_name', header: 'Statement name', value: (x) => x.statement_name, display: (x, paint) => x.statement_name ?? paint.dim('(none on the statement)') },
      {
        key: 'reasons',
        header: 'Reasons',
        value: (x) => x.reasons.join('; '),
        display: (x: NameMatch) => x.reasons.map((reason) => `• ${reason}`).join('\n'),
      },
    ],
  }));
}
