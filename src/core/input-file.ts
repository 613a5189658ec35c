// Opening a file a command reads (`--file`, `--from-file`, `-` for stdin): refused at once with
// exit 2 when it is missing, a folder or unreadable, and read a chunk at a time.
import type { Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

import { UsageError } from './errors.js';
import { whyUnreadable } from './fs-errors.js';

/**
 * A file is read this much at a time: a few calls' worth of terminal numbers. The reading gets a
 * turn between replies, and each turn must bring the next call's lookups, or the calls wait for it.
 */
export const READ_CHUNK_BYTES = 64 * 1024;

/**
 * The --file (or `flag`) to read: refused at once (exit 2) when it is missing, a folder or
 * unreadable.
 */
export async function openInput(
  file: string,
  stdin: NodeJS.ReadableStream,
  flag = '--file',
): Promise<NodeJS.ReadableStream> {
  if (file === '-') return stdin;
  const { handle } = await openFile(file, flag);
  return handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
}

/**
 * Opens --file (or `flag`; a path, not `-`) with what it is: refused at once (exit 2) when it is
 * missing, a folder or unreadable.
 */
export async function openFile(
  file: string,
  flag = '--file',
): Promise<{ handle: FileHandle; info: Stats }> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const info = await handle.stat();
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    return { handle, info };
  } catch (error) {
    await handle?.close();
    throw new UsageError(`cannot read ${flag} ${file}: ${whyUnreadable(error)}`);
  }
}
