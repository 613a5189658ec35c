// What the product views of a report share: a field list of facts followed by whatever else the
// view carries.
import { otherFields } from '../../core/json/values.js';
import { withRest } from '../../core/output/generic.js';
import type { Column } from '../../core/output/view.js';

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
