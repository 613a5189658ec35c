// --columns (docs/reference/output.md, "Columns"): the tables of a view with the columns named, by
// the reply's field names (dotted for nested ones), in the order given; a terminal, a pipe and -o
// wide show those alone. A name that no table of the reply has, nor the list's documented fields,
// is exit 2 naming those it has. A documented field the reply lacks is a blank column; a table with
// none of the names is left out, and field lists stay as they are.
import { UsageError } from '../errors.js';
import { checkColumnNames } from './column-names.js';
import { columnHeader, pipeColumnHeader } from './generic.js';
import type { Column, ListView, Part, View } from './view.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list: T is invariant (view.ts)
type AnyList = ListView<any>;

/**
 * The view with its tables' columns picked by `names`; `documented`: the fields of the items of a
 * list reply (ReplyReader.fields), taken even where the reply has none of them.
 */
export function pickColumns(
  view: View,
  names: readonly string[],
  documented: readonly string[] = [],
): View {
  const items =
    view.kind === 'list' ? view : view.kind === 'sections' ? view.pipe?.items : undefined;
  const lists = [...new Set([...(items ? [items] : []), ...listsOf(view)])];
  if (lists.length === 0)
    throw new UsageError(
      '--columns picks the columns of a list, and this reply is shown as fields, not as a list',
    );
  const shown = lists.flatMap(namesOf);
  const absent = items ? documented.filter((field) => !shown.includes(field)) : [];
  const valid = [...new Set([...shown, ...absent])];
  const described = [...new Set([...lists.flatMap(describedNames), ...absent])];
  // An empty list of a shape no document shows names no column: any name is a blank column there.
  checkColumnNames(names, valid, described);
  const picked = new Map<AnyList, AnyList | undefined>();
  const pick = (list: AnyList): AnyList | undefined => {
    if (!picked.has(list)) picked.set(list, pickedList(list, names, list === items));
    return picked.get(list);
  };
  if (view.kind === 'list') return pick(view)!;
  if (view.kind === 'record') return view;
  const parts = view.parts.flatMap((part): Part[] => {
    if (part.view.kind !== 'list') return [part];
    const list = pick(part.view);
    return list ? [{ ...part, view: list }] : [];
  });
  return {
    ...view,
    parts,
    ...(view.pipe && items && { pipe: { ...view.pipe, items: pick(items)! } }),
  };
}

function listsOf(view: View): AnyList[] {
  if (view.kind === 'list') return [view];
  if (view.kind === 'record') return [];
  return view.parts.flatMap((part) => listsOf(part.view));
}

/**
 * The names --columns takes for a list's columns: their fields, the other names they read, its
 * section and shared value.
 */
function namesOf(list: AnyList): string[] {
  return [
    ...list.columns.flatMap((column) => [column.key, ...(column.also ?? [])]),
    ...(list.section ? [list.section.key] : []),
    ...(list.shared ? [list.shared.key] : []),
  ];
}

/**
 * The list with the named columns it has, in order, each shown whatever its `show` says; the
 * items of a list reply get a blank column for a name they lack. Undefined for another list
 * with none of the names.
 */
function pickedList(
  list: AnyList,
  names: readonly string[],
  isItems: boolean,
): AnyList | undefined {
  const columns = names.flatMap((name): Column<unknown>[] => {
    const column =
      columnNamed(list, name) ??
      (isItems
        ? {
            key: name,
            header: columnHeader(name),
            pipeHeader: pipeColumnHeader(name),
            value: () => '',
          }
        : undefined);
    return column ? [{ ...column, show: undefined }] : [];
  });
  return columns.length > 0 || isItems ? { ...list, columns, picked: true } : undefined;
}

/** The names of a list's columns for a message: `description (or name)`. */
function describedNames(list: AnyList): string[] {
  const columns = list.columns.map((column) =>
    column.also?.length ? `${column.key} (or ${column.also.join(', ')})` : column.key,
  );
  return [
    ...columns,
    ...(list.section ? [list.section.key] : []),
    ...(list.shared ? [list.shared.key] : []),
  ];
}

function columnNamed(list: AnyList, name: string): Column<unknown> | undefined {
  const column = list.columns.find((c) => c.key === name || c.also?.includes(name));
  if (column) return column;
  const { section, shared } = list;
  if (section?.key === name)
    return { key: section.key, header: section.header, value: section.value };
  if (shared?.key === name)
    return { key: shared.key, header: shared.header, value: () => shared.value };
  return undefined;
}
