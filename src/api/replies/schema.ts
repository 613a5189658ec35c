// Documented replies declared as zod schemas (docs/reference/output.md, "Reading replies"). A
// documented field is typed and lenient: of another type, or null, it reads as absent
// (`.catch(undefined)`), and the view shows it as received with everything it does not read. Only
// the structure a command must walk (a list being a list, a report id being a text) is required:
// missing or of the wrong JSON type, reading fails, exit 10, naming the part and what was expected
// (ReplyReading.wrong). Each vocabulary function records what it declares, so that `--debug`
// notes each documented field the reply lacks without looking inside zod.
//
// zod is loaded with the commands whose replies it reads, never at start-up: only the modules of
// src/api/replies/ import this one, and only commands import those.
import * as z from 'zod/mini';

import { ExactNumber } from '../../core/json/exact-number.js';
import { isRecord, type JsonRecord, pick, unreadFields } from '../../core/json/values.js';
import { type ReplyReading } from '../../service/reading.js';

export type Schema = z.ZodMiniType;

/** What a command reads of a reply through `schema`: readReply's result. */
export type Read<S extends Schema> = z.output<S>;

/** What a schema declares, for `--debug`: its documented fields, its items, its forms. */
type Declared =
  | {
      kind: 'object';
      /** Every field read, documented or not. */
      keys: readonly DeclaredField[];
      /** The documented ones, noted when absent. */
      fields: readonly DeclaredField[];
      notesWhenAbsent: boolean;
    }
  | { kind: 'list'; item: Schema }
  | { kind: 'either'; forms: readonly Schema[] };

interface DeclaredField {
  key: string;
  /** Its documented names, the first present read (`period`, `statement_period`). */
  names: readonly string[];
  schema: Schema;
}

const declared = new WeakMap<Schema, Declared>();
/** The parts a command walks: reading fails without them, so they are never noted as lacking. */
const required = new WeakSet<Schema>();
/** Fields read without being documented. */
const unnoted = new WeakSet<Schema>();
/** A field's documented names, when it has more than its key. */
const alsoNamed = new WeakMap<Schema, readonly string[]>();

function declare<S extends Schema>(schema: S, what: Declared): S {
  declared.set(schema, what);
  return schema;
}

function walked<S extends Schema>(schema: S): S {
  required.add(schema);
  return schema;
}

/**
 * Lenient: absent (undefined) when the reply lacks the field, holds null, or holds another type.
 */
function lenient<T extends z.core.SomeType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}

// ---------------------------------------------------------------------------------------------
// Typed fields, each read as absent when of another type

/** A JSON string. */
export function string() {
  return lenient(z.string());
}

/** A text, numbers (as written) and booleans written as text: `12450.30`, `true`. */
export function text() {
  return lenient(TEXT);
}

const TEXT = z.union([
  z.string(),
  z.pipe(z.union([z.number(), z.boolean()]), z.transform(String)),
  z.pipe(
    z.instanceof(ExactNumber),
    z.transform((n) => n.text),
  ),
]);

/** Texts: a list's items that are texts (as `text()`), or one text as a list of one. */
export function texts() {
  return lenient(
    z.union([
      z.pipe(
        z.array(lenient(TEXT)),
        z.transform((items) => items.filter((item) => item !== undefined)),
      ),
      z.pipe(
        TEXT,
        z.transform((one) => [one]),
      ),
    ]),
  );
}

/** A plain decimal in a string, as a reply may write an amount ("12450.30"). */
const DECIMAL_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

/** A finite number, or a string that writes one ("12450.30"). */
export function number() {
  return lenient(
    z.pipe(
      z.union([
        z.number(),
        z.pipe(
          z.instanceof(ExactNumber),
          z.transform((n) => n.valueOf()),
        ),
        z.pipe(z.string().check(z.regex(DECIMAL_TEXT)), z.transform(Number)),
      ]),
      z.number(),
    ),
  );
}

/**
 * A finite number as the reply wrote it, every digit kept (an amount, a count): a JSON number as
 * received, or the ExactNumber of one kept as written or written in a string ("12450.30").
 */
export function decimal() {
  return lenient(
    z.union([
      z.number(),
      z.instanceof(ExactNumber).check(z.refine((n) => Number.isFinite(n.valueOf()))),
      z.pipe(
        z.string().check(z.regex(DECIMAL_TEXT)),
        // As written, spaces and all: shown in a pipe as it came (Intl reads the spaces as
        // JSON.parse does).
        z.transform((s) => new ExactNumber(s)),
      ),
    ]),
  );
}

/**
 * One value of any JSON type but an object, a list or null (a text, a number as written, a flag),
 * as received.
 */
export function scalar() {
  return lenient(z.union([z.string(), z.number(), z.boolean(), z.instanceof(ExactNumber)]));
}

/** Any JSON value but an object or null: a text, a number as written, a flag or a list. */
export function notObject() {
  return lenient(
    z.union([z.string(), z.number(), z.boolean(), z.instanceof(ExactNumber), z.array(z.unknown())]),
  );
}

export function boolean() {
  return lenient(z.boolean());
}

/** A documented field of any type, read as it came (a part the view shows by the generic rules). */
export function any() {
  return z.optional(z.unknown());
}

/** An object of typed fields; any other part let through as received. */
export function object<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return declare(lenient(objectOf(shape)), objectDeclared(shape, true));
}

/** A list of items as declared (an item of another type reads as absent). */
export function listOf<Item extends Schema>(item: Item) {
  return declare(lenient(z.array(item)), { kind: 'list', item });
}

/** `schema` read under the first of its documented names present (`period`, `statement_period`). */
export function named<S extends Schema>(schema: S, ...names: string[]): S {
  alsoNamed.set(schema, names);
  return schema;
}

/** A field the documents do not name, read where it comes: never noted for `--debug`. */
export function undocumented<S extends Schema>(schema: S): S {
  unnoted.add(schema);
  return schema;
}

// ---------------------------------------------------------------------------------------------
// What a command walks: required, exit 10 when missing or of another type

/** An object the command must walk: its named parts as declared, any other part let through. */
export function record<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return walked(declare(objectOf(shape), objectDeclared(shape, false)));
}

/** A list the command must walk, of items as declared. */
export function list<Item extends Schema>(item: Item) {
  return walked(declare(z.array(item), { kind: 'list', item }));
}

/** A list the command must walk, of items of any kind: the list itself, as received. */
export function listAsReceived() {
  const schema = z.custom<unknown[]>(Array.isArray, { params: { expected: 'a list' } });
  return walked(declare(schema, { kind: 'list', item: any() }));
}

/** A text the command must have (a report id to poll, a URL to open): a string, not empty. */
export function requiredText() {
  return walked(z.string().check(z.minLength(1)));
}

/** Either documented form of a part (a dataset's `data`, an object or a list). */
export function either<A extends Schema, B extends Schema>(a: A, b: B) {
  return declare(z.union([a, b]), { kind: 'either', forms: [a, b] });
}

/** A required part, as an optional one: documented, walked when present, noted when absent. */
export function optional<T extends Schema>(schema: T) {
  const what = declared.get(schema);
  return what ? declare(z.optional(schema), what) : z.optional(schema);
}

// ---------------------------------------------------------------------------------------------
// Parts a view needs as received, a text or texts as sent, a body of any type

/**
 * An object, the very one received: zod's objects are copies, their declared fields first and
 * without a field named `__proto__`, and a generic view shows every field in the reply's order.
 */
export function objectAsReceived() {
  return lenient(z.custom<JsonRecord>(isRecord));
}

/** A list of JSON strings, every item one; anything else absent. */
export function strings() {
  return lenient(z.array(z.string()));
}

/** A text, or a list of them (`scopes`) kept a list, its items of another type absent. */
export function textOrTexts() {
  return z.union([z.array(text()), text()]);
}

export type TextOrTexts = z.output<ReturnType<typeof textOrTexts>>;

/**
 * A number as the reply wrote it, for a view that shows it so: a JSON number, one kept as written
 * (any ExactNumber), or a string that writes a decimal, kept the string it is.
 */
export function numeric() {
  return lenient(
    z.union([z.number(), z.instanceof(ExactNumber), z.string().check(z.regex(DECIMAL_TEXT))]),
  );
}

/**
 * A reply of any JSON type, read for the parts a command must have (`record`): a body that is no
 * object reads as one without fields, so that the part is named as missing.
 */
export function anyBody<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.pipe(
    z.transform((body: unknown) => (isRecord(body) ? body : {})),
    record(shape),
  );
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * An object of a reply (not a number kept as written), its fields read under their documented
 * names.
 */
function objectOf<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const renamed = Object.entries(shape).filter(([, schema]) => alsoNamed.has(schema as Schema));
  const object = z.looseObject(shape);
  const asRecord = z.custom<JsonRecord>(isRecord, { params: { expected: 'an object' } });
  if (!renamed.length) return z.pipe(asRecord, object);
  const underKeys = z.transform((from: JsonRecord) => {
    const copy: JsonRecord = { ...from };
    for (const [key, schema] of renamed)
      copy[key] = pick(from, ...alsoNamed.get(schema as Schema)!);
    return copy;
  });
  return z.pipe(z.pipe(asRecord, underKeys), object);
}

function objectDeclared(shape: z.core.$ZodLooseShape, notesWhenAbsent: boolean): Declared {
  const keys = Object.entries(shape).map(([key, schema]) => ({
    key,
    names: alsoNamed.get(schema as Schema) ?? [key],
    schema: schema as Schema,
  }));
  const fields = keys.filter((field) => !unnoted.has(field.schema));
  return { kind: 'object', keys, fields, notesWhenAbsent };
}

/**
 * The reply read through its schema: zod's reading of it, typed (a lenient field of another type
 * absent, every undeclared part as received). Fails exit 10 through ReplyReading.wrong.
 */
export function readReply<S extends Schema>(
  reading: ReplyReading,
  schema: S,
  body: unknown,
): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw failure(reading, result.error.issues, body);
  noteLacking(reading, schema, body, '');
  link(schema, result.data, body);
  return result.data;
}

/**
 * A part of a reply (an item of a table) read through its schema, typed, without notes for
 * `--debug`.
 */
export function readPart<S extends Schema>(schema: S, value: unknown): z.output<S> | undefined {
  const result = schema.safeParse(value);
  if (!result.success) return undefined;
  link(schema, result.data, value);
  return result.data;
}

/** Each object read, to the object of the reply it was read from. */
const readFrom = new WeakMap<object, JsonRecord>();

/**
 * The object of the reply that `read` was read from, as received: every field as it came (zod's
 * copy types the declared ones and leaves out a field named `__proto__`).
 */
export function received(read: object | undefined): JsonRecord | undefined {
  return read === undefined ? undefined : readFrom.get(read);
}

/** Links each object read to the object of the reply it was read from, as declared. */
function link(schema: Schema, read: unknown, value: unknown): void {
  const what = declared.get(schema);
  if (what?.kind === 'object') {
    if (!isRecord(read) || !isRecord(value)) return;
    readFrom.set(read, value);
    for (const field of what.keys) link(field.schema, read[field.key], pick(value, ...field.names));
  } else if (what?.kind === 'list') {
    if (Array.isArray(read) && Array.isArray(value))
      read.forEach((item, i) => link(what.item, item, value[i]));
  } else if (what?.kind === 'either') {
    const form = what.forms.find((option) => option.safeParse(value).success);
    if (form) link(form, read, value);
  }
}

/**
 * What a view leaves to the generic one: the fields of `body` other than the documented fields of
 * `schema` it read; a documented field read as absent (of another type) is left, as received.
 */
export function unread(schema: Schema, body: unknown, read: unknown): JsonRecord {
  const what = declared.get(schema);
  const fields = what?.kind === 'object' ? what.keys.map((field) => field.key) : [];
  const values = isRecord(read) ? read : {};
  return unreadFields(body, [], Object.fromEntries(fields.map((key) => [key, values[key]])));
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

/**
 * Notes, in the order declared, the documented fields of `value` that are absent or null, and walks
 * what is present.
 */
function noteLacking(reading: ReplyReading, schema: Schema, value: unknown, path: string): void {
  const what = declared.get(schema);
  if (what?.kind === 'object') {
    for (const field of what.fields) {
      const at = path === '' ? field.key : `${path}.${field.key}`;
      if (required.has(field.schema)) {
        noteLacking(reading, field.schema, isRecord(value) ? value[field.key] : undefined, at);
        continue;
      }
      const present = pick(value, ...field.names);
      if (present === undefined) noteAbsent(reading, field.schema, at);
      else noteLacking(reading, field.schema, present, at);
    }
  } else if (what?.kind === 'list') {
    if (Array.isArray(value))
      for (const item of value) noteLacking(reading, what.item, item, `${path}[]`);
  } else if (what?.kind === 'either') {
    const form = what.forms.find((option) => option.safeParse(value).success);
    if (form) noteLacking(reading, form, value, path);
  }
}

/**
 * A documented part the reply lacks, and the documented fields of it, had it been an object read
 * field by field.
 */
function noteAbsent(reading: ReplyReading, schema: Schema, path: string): void {
  reading.lacks(path);
  const what = declared.get(schema);
  if (what?.kind === 'object' && what.notesWhenAbsent)
    noteLacking(reading, schema, undefined, path);
}
