// What `webhooks listen` and `verify` print of a peer: a delivery's fields and headers, the path a
// sender asked for, a forward target's reply or error. Their text goes through the one gate of peer
// text (core/output/format.ts shownText), cut at MAX_SHOWN_CHARS; a delivery's body for machines
// is JSON made inert here.
import { terminalJson } from '../core/output/format.js';

/**
 * Past this many characters a value is cut: a field, a header or a reply excerpt, never a whole
 * body.
 */
export const MAX_SHOWN_CHARS = 200;

/**
 * A JSON body as one compact line: C0 controls are escaped by the serialiser, and DEL, the C1 and
 * the bidirectional controls are written as \u escapes too, so the line means the same value but
 * cannot act on the terminal that shows it (a file of events is read with `cat` and `tail -f`).
 */
export function shownJson(body: unknown): string {
  return terminalJson(JSON.stringify(body));
}
