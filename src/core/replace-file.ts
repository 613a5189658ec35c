// Replacing a file in one step: the new text goes to a temporary file created exclusively beside
// it, then renamed over it. A reader sees the old file or the new one, never half of either; a
// file or link planted at the temporary name makes the write fail instead of being written
// through (so its name need not be unguessable: it is random only so that two writers do not
// collide); and rename() replaces a link at the file's name rather than following it.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface ReplaceOptions {
  /**
   * Flushed to the disk before the rename, for a file whose loss would cost the user (a config).
   */
  durable?: boolean;
}

/**
 * Writes `data` as `file`, mode 0600, in one step; throws the first failure, leaving no temporary
 * file.
 */
export function replaceFile(
  file: string,
  data: string | Uint8Array,
  options: ReplaceOptions = {},
): void {
  const temporary = join(
    dirname(file),
    `.${basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`,
  );
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    try {
      writeFileSync(fd, data);
      if (options.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
