// The names --columns takes (docs/reference/output.md, "Columns"): those of the columns a reply
// has, the documented fields with them. Any other is exit 2, naming the valid ones.
import { UsageError } from '../errors.js';

/**
 * Throws a usage error for the names not among `valid`, which names the columns as `described`
 * says (`description (or name)`); when nothing is known of the columns (an empty list no document
 * shows), every name is taken.
 */
export function checkColumnNames(
  names: readonly string[],
  valid: readonly string[],
  described: readonly string[] = valid,
): void {
  const unknown = names.filter((name) => !valid.includes(name));
  if (unknown.length === 0 || valid.length === 0) return;
  const quoted = unknown.map((name) => `"${name}"`).join(', ');
  throw new UsageError(
    `--columns: ${unknown.length === 1 ? 'no column' : 'no columns'} ${quoted} in this reply; its columns are ${described.join(', ')}`,
  );
}
