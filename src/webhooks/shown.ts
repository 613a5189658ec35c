// The one place where text from a webhook peer becomes printable: a delivery's fields and headers,
// the path a sender asked for, a forward target's reply or error. Any of them may hold escape
// sequences (a clipboard write, a link, a cleared screen), C1 controls or bidirectional controls;
// what `webhooks listen` and `verify` print of them goes through here, with the same rules as text
// from the service (core/output/format.ts).
import { oneLine, terminalJson } from '../core/output/format.js';

/** Past this many characters a value is cut: a field, a header or a reply excerpt, never a whole body. */
export const MAX_SHOWN_CHARS = 200;

/** What masks the run's secrets in a text (core/output/secrets.ts). */
export interface Masker {
  mask(text: string): string;
}

/**
 * Peer text for one line of a message: secrets masked first (a key split by `ESC[0m` is still
 * read as the key), then control characters gone (line breaks too), cut past `max`.
 */
export function shownText(text: string, secrets: Masker, max: number = MAX_SHOWN_CHARS): string {
  const line = oneLine(secrets.mask(text));
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/**
 * A JSON body as one compact line: C0 controls are escaped by the serialiser, and DEL, the C1 and
 * the bidirectional controls are written as \u escapes too, so the line means the same value but
 * cannot act on the terminal that shows it (a file of events is read with `cat` and `tail -f`).
 */
export function shownJson(body: unknown): string {
  return terminalJson(JSON.stringify(body));
}
