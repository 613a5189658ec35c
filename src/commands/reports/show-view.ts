// What the product views of a report share: one GET of the view, and a field list of facts
// followed by whatever else the view carries.
import { type Endpoint, target } from '../../api/endpoints.js';
import type { Context, ReplyReader } from '../../app/context.js';
import { withRest } from '../../core/output/generic.js';
import type { Column } from '../../core/output/view.js';
import { otherFields } from '../../core/reading.js';

export async function showView<R = undefined>(
  ctx: Context,
  id: string,
  view: Endpoint,
  read: (what: string) => ReplyReader<R>,
): Promise<void> {
  const call = target(view, { report_id: id });
  const client = await ctx.client();
  const reply = await client.request(call);
  await ctx.present(reply, read(call.what));
}

export type Fact = { header: string; text?: string; key: string };

/** Facts as a field list, then whatever else the view carries. */
export function factsView(facts: Fact[], body: unknown, known: readonly string[]) {
  const fields: Column<Fact[]>[] = facts.map((fact, i) => ({
    key: fact.key,
    header: fact.header,
    value: (x) => x[i]!.text,
  }));
  return withRest({ kind: 'record', record: facts, fields }, otherFields(body, known));
}
