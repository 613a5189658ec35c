// Picks a series selector for a person at a terminal: a searchable list of the family's line items,
// built from its `/latest` reply. Only called when Context.canPrompt.
import type { Context } from '../../app/context.js';
import { forPeople } from '../../app/present.js';
import { UnexpectedReplyError } from '../../core/errors.js';
import { type DataFamily, latestPath } from './families.js';
import { type CachePolicy, fetchDataset } from './fetch.js';
import { itemListOf, type Selector, selectorsOf } from './items.js';
import { unitText } from './views.js';

export async function pickSelector(
  ctx: Context,
  family: DataFamily,
  policy: CachePolicy,
  query: Record<string, string>,
): Promise<string> {
  const { reply } = await fetchDataset(ctx, { path: latestPath(family), query }, policy);
  const selectors = forPeople(ctx, selectorsOf(itemListOf(reply.body, family.selector)));
  if (selectors.length === 0) {
    throw new UnexpectedReplyError(
      `the reply to GET ${latestPath(family)} names no ${family.selector} to pick from; give the SELECTOR argument`,
    );
  }
  const prompter = ctx.prompter();
  return prompter.search(`Which ${family.selector} of ${family.name}? (type to filter)`, (term) =>
    matching(selectors, term).map((s) => ({
      name: `${s.value}  ${s.label ?? ''}${s.unit ? ` (${unitText(s.unit)})` : ''}`,
      value: s.value,
      short: s.value,
      description: s.section,
    })),
  );
}

/** Selectors whose value, label or section contain every word of the search term, any case. */
export function matching(selectors: readonly Selector[], term: string | undefined): Selector[] {
  const words = (term ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return selectors.filter((s) => {
    const text = `${s.value} ${s.label ?? ''} ${s.section ?? ''}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
