// Documented replies declared as zod schemas (docs/reference/output.md, "Reading replies"). A schema requires only the structure
// a command must walk (a list being a list, a report id being a text) and lets everything else
// through: its objects are loose, and a documented field is optional and of any type, read by the
// command as it can (textOf, numberOf). Reading a reply through a schema fails, exit 10 naming
// the part and what was expected (ReplyReading.wrong), when it is missing or of the wrong JSON
// type; and notes, for `--debug`, each documented field the reply lacks.
//
// zod is loaded with the commands whose replies it reads, never at start-up: only the modules of
// src/api/replies/ import this one, and only commands import those. (`reports list` reads its one
// list by hand: its table into a pipe runs no package but commander.)
import * as z from 'zod/mini';

import { isRecord, type JsonRecord, pick, type ReplyReading } from './reading.js';

export type Schema = z.ZodMiniType;

/** What a command reads of a reply through `schema`: readReply's result. */
export type Read<S extends Schema> = z.output<S>;

/** The documented names of a field read under more than one (`period`, `statement_period`). */
const alsoNamed = new WeakMap<object, readonly string[]>();

/** A documented field: optional, of any JSON type, noted for `--debug` when absent or null. `names`: its documented names, the first present read. */
export function field(...names: string[]) {
  const schema = z.optional(z.unknown());
  if (names.length) alsoNamed.set(schema, names);
  return schema;
}

/** An object the command must walk: its named parts as declared, any other part let through. */
export function record<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  // Checked first as a record of a reply (a number kept as written is no object), then by shape.
  return z.pipe(
    z.custom<JsonRecord>(isRecord, { params: { expected: 'an object' } }),
    z.looseObject(shape),
  );
}

/** Documented fields only: each optional (`field()`, or `optional(loose(...))` for a documented part of parts). */
type FieldShape = Record<string, z.ZodMiniOptional>;

/** What a command reads of a loose part: its documented fields; absent where the part is null. */
export type Loose<Shape extends FieldShape> =
  { readonly [K in keyof Shape]?: z.output<Shape[K]> } | null | undefined;

/** The declared shape of each loose schema, for `--debug`. */
const looseShapes = new WeakMap<object, Schema>();

/**
 * A part read field by field, never required to be an object: an item of a documented list, or a
 * reply whose view shows what it cannot read as it came. Its documented fields are noted for
 * `--debug` when absent. Read with `?.`: a part that is a text or a number has none of them.
 */
export function loose<Shape extends FieldShape>(shape: Shape) {
  const schema = z.custom<Loose<Shape>>(() => true);
  looseShapes.set(schema, z.looseObject(shape));
  return schema;
}

/** A list the command must walk, of items as declared. */
export function list<Item extends z.core.SomeType>(item: Item) {
  return z.array(item);
}

/** A text the command must have (a report id to poll, a URL to open): a string, not empty. */
export function text() {
  return z.string().check(z.minLength(1));
}

/** Either documented form of a part (a dataset's `data`, an object or a list). */
export function either<A extends z.core.SomeType, B extends z.core.SomeType>(a: A, b: B) {
  return z.union([a, b]);
}

/** A required part, as an optional one: documented, walked when present, noted when absent. */
export function optional<T extends z.core.SomeType>(schema: T) {
  return z.optional(schema);
}

/**
 * The reply read through its schema: the body itself, typed by the schema (zod's copy is not
 * used, so that every field stays as received). Fails exit 10 through ReplyReading.wrong.
 */
export function readReply<S extends Schema>(
  reading: ReplyReading,
  schema: S,
  body: unknown,
): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw failure(reading, result.error.issues, body);
  noteLacking(reading, schema, body, '');
  return body as z.output<S>;
}

const EXPECTED: Record<string, string> = { object: 'an object', array: 'a list', string: 'a text' };

function failure(reading: ReplyReading, issues: readonly z.core.$ZodIssue[], body: unknown) {
  let issue = issues[0]!;
  // Neither form of a part: named by the first form's issue.
  while (issue.code === 'invalid_union' && issue.errors[0]?.[0])
    issue = { ...issue.errors[0][0], path: [...issue.path, ...issue.errors[0][0].path] };
  const path = pathText(issue.path);
  const expected =
    issue.code === 'invalid_type'
      ? (EXPECTED[issue.expected] ?? `a ${issue.expected}`)
      : issue.code === 'too_small' && issue.origin === 'string'
        ? 'a text'
        : issue.code === 'custom'
          ? ((issue.params as { expected?: string } | undefined)?.expected ?? 'something else')
          : 'something else';
  return reading.wrong(path, expected, valueAt(body, issue.path));
}

/** The value at a path of the reply; a part that is null reads as missing, as `pick` has it. */
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof key === 'number') value = Array.isArray(value) ? value[key] : undefined;
    else value = isRecord(value) ? value[String(key)] : undefined;
    if (value === null) return undefined;
  }
  return value;
}

/** `data.results[].id`: names joined with dots, list items as `[]`. */
function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += '[]';
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

type Def = {
  type: string;
  shape?: Record<string, Schema>;
  innerType?: Schema;
  element?: Schema;
  out?: Schema;
  options?: Schema[];
};
const defOf = (schema: Schema) => schema._zod.def as unknown as Def;

/** Notes, in the order declared, the documented fields of `value` that are absent or null, and walks what is present. */
function noteLacking(reading: ReplyReading, schema: Schema, value: unknown, path: string): void {
  const def = defOf(schema);
  switch (def.type) {
    case 'pipe':
      return noteLacking(reading, def.out!, value, path);
    case 'object':
      for (const [key, part] of Object.entries(def.shape!)) {
        const at = path === '' ? key : `${path}.${key}`;
        if (defOf(part).type === 'optional') {
          const present = pick(value, ...(alsoNamed.get(part) ?? [key]));
          if (present === undefined) noteAbsent(reading, defOf(part).innerType!, at);
          else noteLacking(reading, defOf(part).innerType!, present, at);
        } else noteLacking(reading, part, isRecord(value) ? value[key] : undefined, at);
      }
      return;
    case 'array':
      if (Array.isArray(value))
        for (const item of value) noteLacking(reading, def.element!, item, `${path}[]`);
      return;
    case 'union': {
      const form = def.options!.find((option) => option.safeParse(value).success);
      if (form) noteLacking(reading, form, value, path);
      return;
    }
    default: {
      const shape = looseShapes.get(schema);
      if (shape) noteLacking(reading, shape, value, path);
      return;
    }
  }
}

/** A documented part the reply lacks, and the documented fields of it, had it been a loose part. */
function noteAbsent(reading: ReplyReading, schema: Schema, path: string): void {
  reading.lacks(path);
  const shape = looseShapes.get(schema);
  if (shape) noteLacking(reading, shape, undefined, path);
}
