// Reading replies (docs/reference/output.md, "Reading replies"). The service changes, and its
// documents leave many shapes "not shown": a command takes what it knows from a reply, accepts
// every documented form, and never requires a field the documents do not show. Only the structure a
// command must walk (the `data` list of `reports list`, say) is required: missing or of the wrong
// JSON type, it is exit 10.
import { UnexpectedReplyError } from '../core/errors.js';
import { jsonType } from '../core/json/values.js';

/**
 * What one command read from one reply. It names the reply for messages, notes the documented
 * fields the reply lacks (`--debug` prints one line each) and fails, exit 10, only when the
 * structure the command must walk is missing or of the wrong JSON type.
 */
export class ReplyReading {
  readonly lacking: string[] = [];

  /** `what`: the request, as `GET /v1/usage`. */
  constructor(readonly what: string) {}

  /** Notes a documented field the reply lacks (once per path). */
  lacks(path: string): void {
    if (!this.lacking.includes(path)) this.lacking.push(path);
  }

  /**
   * The exit-10 error: the structure at `path` should be `expected` ("a list"), and `value` is what
   * came.
   */
  wrong(path: string, expected: string, value: unknown): UnexpectedReplyError {
    const found = value === undefined ? 'it is missing' : `it is ${jsonType(value)}`;
    return new UnexpectedReplyError(
      `unexpected reply to ${this.what}: ${path === '' ? 'the body' : `"${path}"`} should be ${expected}, but ${found}`,
    );
  }

  /** The --debug lines: one per documented field the reply lacks. */
  debugLines(): string[] {
    return this.lacking.map(
      (path) => `debug: ${this.what}: the reply has no documented field "${path}"`,
    );
  }
}
