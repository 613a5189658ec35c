// A --file read twice or more: once to count its lookups (the plan a person sees, the progress
// bar's totals), once more for the calls, and with --each-line once more for the lines. Nothing of
// it is kept in memory between the readings.
// A plain file is read again from its start, and refused if it changed in between. Standard input
// and anything else that cannot be read twice (a pipe, `<(…)`) is copied, as the first reading
// goes, into a PrivateFile (below): nobody else can open it, and nothing is left behind however
// svc ends.
import { createHash, type Hash } from 'node:crypto';
import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { UsageError } from '../core/errors.js';
import { whyUnreadable } from '../core/fs-errors.js';
import { openFile, READ_CHUNK_BYTES } from '../core/input-file.js';

export class TwiceReadInput {
  private spooled = false;
  /** The SHA-256 of the input's bytes, made as the first reading goes, when asked for. */
  private hash?: Hash;
  private digested?: string;

  private constructor(
    private readonly file: string,
    /** The file itself, or the copy. */
    private readonly stored: FileHandle | PrivateFile,
    /** What the first reading reads and copies, when there is a copy. */
    private readonly source: NodeJS.ReadableStream | undefined,
    /** The source is a stream of svc's own (not standard input): closed with the input. */
    private readonly ownsSource: boolean,
    /** Size and time of change of a plain file, when first read. */
    private readonly seen: { size: number; mtimeMs: number } | undefined,
  ) {}

  /**
   * Opens --file (`-`: standard input); refused at once (exit 2) when it cannot be read. `digest`:
   * the first reading also makes the SHA-256 of what it reads (`digest()`).
   */
  static async open(
    file: string,
    stdin: NodeJS.ReadableStream,
    digest = false,
  ): Promise<TwiceReadInput> {
    const input = await TwiceReadInput.opened(file, stdin);
    if (digest) input.hash = createHash('sha256');
    return input;
  }

  private static async opened(file: string, stdin: NodeJS.ReadableStream): Promise<TwiceReadInput> {
    if (file === '-') return TwiceReadInput.copied(file, stdin, undefined);
    const { handle, info } = await openFile(file);
    if (info.isFile())
      return new TwiceReadInput(file, handle, undefined, false, {
        size: info.size,
        mtimeMs: info.mtimeMs,
      });
    return TwiceReadInput.copied(
      file,
      handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES }),
      handle,
    );
  }

  private static async copied(
    file: string,
    source: NodeJS.ReadableStream,
    opened: FileHandle | undefined,
  ): Promise<TwiceReadInput> {
    let copy: PrivateFile;
    try {
      copy = await PrivateFile.create('svc-lookups-');
    } catch (error) {
      await opened?.close();
      throw new UsageError(
        `cannot keep a copy of ${nameOf(file)} to read it twice: ${whyUnreadable(error)}`,
        ['Give the lookups as a plain file instead, or set TMPDIR to a folder svc can write in.'],
      );
    }
    // An opened source is closed through its own stream (autoClose), not through this handle.
    return new TwiceReadInput(file, copy, source, opened !== undefined, undefined);
  }

  private get handle(): FileHandle {
    return this.stored instanceof PrivateFile ? this.stored.handle : this.stored;
  }

  /** The first reading: from the start of the file; or the source, copied as it is read. */
  first(): NodeJS.ReadableStream {
    const read = this.source
      ? copyWhileReading(this.source, this.handle, this.file)
      : this.handle.createReadStream({
          start: 0,
          autoClose: false,
          highWaterMark: READ_CHUNK_BYTES,
        });
    this.spooled = this.source !== undefined;
    if (!this.hash)
      return this.source
        ? Readable.from(read, { objectMode: false })
        : (read as NodeJS.ReadableStream);
    return Readable.from(this.digesting(read, this.hash), { objectMode: false });
  }

  /**
   * The SHA-256 (hex) of the input, once the first reading has read it to its end; undefined
   * otherwise.
   */
  digest(): string | undefined {
    return this.digested;
  }

  private async *digesting(
    chunks: AsyncIterable<Buffer | string>,
    hash: Hash,
  ): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      hash.update(bytes);
      yield bytes;
    }
    this.digested = hash.digest('hex');
  }

  /**
   * Another reading (the second, the third), from the start; refused (exit 2) when a plain file
   * changed meanwhile.
   */
  async again(): Promise<NodeJS.ReadableStream> {
    if (this.seen) {
      const now = await this.handle.stat();
      if (now.size !== this.seen.size || now.mtimeMs !== this.seen.mtimeMs) {
        throw new UsageError(`--file ${this.file} changed while it was read`, [
          'Run again once it is complete, or give a copy of it.',
        ]);
      }
    } else if (!this.spooled) {
      throw new Error('again() before first() on a copied input');
    }
    return this.handle.createReadStream({
      start: 0,
      autoClose: false,
      highWaterMark: READ_CHUNK_BYTES,
    });
  }

  async close(): Promise<void> {
    await this.stored.close().catch(() => {});
    if (this.ownsSource) (this.source as Readable).destroy();
  }
}

/**
 * A file of svc's own that nobody else can open: created 0600 in a new folder (0700) under the
 * system's temporary folder, and removed at once while it stays open (where an open file cannot
 * be removed, Windows, at close), so that nothing is left behind however svc ends.
 */
export class PrivateFile {
  private constructor(
    readonly handle: FileHandle,
    /** The folder, while it could not be removed yet. */
    private folder: string | undefined,
  ) {}

  /** Refused with the system's error when the temporary folder takes no file. */
  static async create(prefix: string): Promise<PrivateFile> {
    let folder: string | undefined;
    let handle: FileHandle | undefined;
    try {
      folder = await mkdtemp(join(tmpdir(), prefix));
      handle = await open(join(folder, 'data'), 'wx+', 0o600);
    } catch (error) {
      await handle?.close();
      if (folder) await rm(folder, { recursive: true, force: true });
      throw error;
    }
    const file = new PrivateFile(handle, folder);
    await file.removeFolder();
    return file;
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => {});
    await this.removeFolder();
  }

  private async removeFolder(): Promise<void> {
    if (!this.folder) return;
    try {
      await rm(this.folder, { recursive: true, force: true });
      this.folder = undefined;
    } catch {
      // Open, on a system that keeps open files: removed at close.
    }
  }
}

/** The chunks of `source`, each written to `copy` before it is handed on. */
async function* copyWhileReading(
  source: NodeJS.ReadableStream,
  copy: FileHandle,
  file: string,
): AsyncGenerator<Buffer> {
  for await (const chunk of source as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    try {
      await copy.write(bytes);
    } catch (error) {
      throw new UsageError(
        `cannot keep a copy of ${nameOf(file)} to read it twice: ${whyUnreadable(error)}`,
        ['Give the lookups as a plain file instead, or set TMPDIR to a folder with room.'],
      );
    }
    yield bytes;
  }
}

/** --file as a person reads it: `-` is standard input. */
export function nameOf(file: string): string {
  return file === '-' ? 'standard input' : file;
}
