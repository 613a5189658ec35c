// Picks a series selector for a person at a terminal: a searchable list of the family's line items,
// built from its `/latest` reply. Only called when Context.canPrompt.
import { datasetLatest, type LineItem } from '../../api/data-schemas.js';
import type { Context } from '../../core/context.js';
import { printableDeep } from '../../core/output/format.js';
import { fetchDataset, type CachePolicy } from './fetch.js';
import { latestPath, type DataFamily } from './families.js';

export async function pickSelector(ctx: Context, family: DataFamily, policy: CachePolicy): Promise<string> {
  const { data } = await fetchDataset(ctx, { path: latestPath(family), query: {} }, datasetLatest, policy);
  const items = printableDeep(data.data.items);
  const { search } = await import('@inquirer/prompts');
  return search(
    {
      message: `Which ${family.selector} of ${family.name}? (type to filter)`,
      pageSize: 12,
      source: async (term) =>
        matching(items, term).map((item) => ({
          name: `${item.key}  ${item.label}${item.unit ? ` (${item.unit})` : ''}`,
          value: item.key,
          short: item.key,
          description: item.section ?? undefined,
        })),
    },
    { input: ctx.io.stdin, output: ctx.io.stderr },
  );
}

/** Items whose key, label or section contain every word of the search term, any case. */
export function matching(items: readonly LineItem[], term: string | undefined): LineItem[] {
  const words = (term ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    const text = `${item.key} ${item.label} ${item.section ?? ''}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
