// More words of the reply vocabulary (schema.ts): parts a view needs as received (an object whose
// fields the generic view shows in their order, a number as the reply wrote it), a text or a list
// of texts, and a reply of any JSON type read for one required text.
import * as z from 'zod/mini';

import { ExactNumber } from '../../core/json/exact-number.js';
import { isRecord, type JsonRecord } from '../../core/json/values.js';
import { record, text } from './schema.js';

/** Absent (undefined) when the reply lacks the field, holds null, or holds another type. */
function lenient<T extends z.core.SomeType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}

/**
 * An object, the very one received: zod's objects are copies, their declared fields first and
 * without a field named `__proto__`, and a generic view shows every field in the reply's order.
 */
export function received() {
  return lenient(z.custom<JsonRecord>(isRecord));
}

/** A list of JSON strings, every item one; anything else absent. */
export function strings() {
  return lenient(z.array(z.string()));
}

/** A text, or a list of them (`scopes`), its items of another type absent. */
export function texts() {
  return z.union([z.array(text()), text()]);
}

export type Texts = z.output<ReturnType<typeof texts>>;

const DECIMAL_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

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
