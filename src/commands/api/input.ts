// The local input of one `svc api` request: the --input body and the -F key=@file values, read
// from files or standard input within one limit for them all (a device such as /dev/zero, or a
// pipe, would otherwise be read until the memory runs out).
import { open } from 'node:fs/promises';

import { readCapped } from '../../core/capped-read.js';
import { CliError, UsageError } from '../../core/errors.js';
import { whyUnreadable } from '../../core/fs-errors.js';

/** Files and standard input together, per request: more than the service takes in any body. */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;
/** MAX_INPUT_BYTES as the help and the messages write it. */
export const MAX_INPUT_SIZE = `${MAX_INPUT_BYTES / 1024 / 1024} MB`;

export class RequestInput {
  /** Standard input can be read once: by --input - or by one -F key=@-. */
  private stdinReader?: string;
  private taken = 0;

  constructor(private readonly stdin: NodeJS.ReadableStream) {}

  /**
   * The bytes of `source` (a path, or `-` for standard input); `by` is how the command line asked
   * for them (`--input body.json`, `-F note=@-`), for messages.
   */
  async read(source: string, by: string): Promise<Buffer> {
    const bytes = source === '-' ? await this.readStdin(by) : await this.readFile(source, by);
    this.taken += bytes.length;
    return bytes;
  }

  private async readStdin(by: string): Promise<Buffer> {
    if (this.stdinReader)
      throw new UsageError(
        `standard input is read once: ${this.stdinReader} and ${by} both ask for it`,
      );
    this.stdinReader = by;
    return readCapped(this.stdin, MAX_INPUT_BYTES - this.taken, () => this.tooLarge(by));
  }

  private async readFile(source: string, by: string): Promise<Buffer> {
    let handle;
    try {
      handle = await open(source, 'r');
      return await readCapped(
        handle.createReadStream({ autoClose: false }),
        MAX_INPUT_BYTES - this.taken,
        () => this.tooLarge(by),
      );
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new UsageError(`cannot read ${source}: ${whyUnreadable(error)}`);
    } finally {
      await handle?.close();
    }
  }

  private tooLarge(by: string): UsageError {
    return new UsageError(
      `${by}: more than ${MAX_INPUT_SIZE} to send; svc api takes at most ${MAX_INPUT_SIZE} from files and standard input for one request`,
    );
  }
}
