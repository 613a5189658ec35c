// `svc mock`'s demo keys, kept in the user's data folder (mock-keys.json) so that the mock prints
// the same keys at every start and a saved login survives a restart; `--new-keys` replaces them.
// The file holds keys: it is kept as the config file is (core/private-file.ts), and changed under
// its lock, so that two mocks started at once with no file print the keys the first one wrote.
import { sep } from 'node:path';

import type { Context } from '../../app/context.js';
import { NO_HOME } from '../../config/paths.js';
import { CliError } from '../../core/errors.js';
import {
  FileNotWrittenError,
  PrivateFile,
  type PrivateFileWords,
} from '../../core/private-file.js';
import type { KeptKeys, MockKey } from '../../mock/entry.js';

export const KEYS_FILE = 'mock-keys.json';

const WORDS: PrivateFileWords = {
  file: 'mock key file',
  folder: 'data folder',
  variable: 'SVC_DATA_DIR',
  ownedByOther: 'move it away, and svc mock makes new keys',
  changeable: (chmod) => `run \`${chmod}\`, or \`svc mock --new-keys\` to replace it`,
  readable: (file, mode, chmod) =>
    `other users can read svc mock's demo keys in ${file} (mode ${mode}); run \`${chmod}\``,
};

export interface DemoKeys {
  keys: MockKey[];
  /** Where they are kept; undefined when they could not be: then they are made for this run. */
  file?: string;
}

/** `mockKeys` of the mock: the keys of its organisations from what a file kept (server.ts). */
type MakeKeys = (kept?: readonly unknown[]) => KeptKeys;

/**
 * The keys this start of the mock prints: those kept in `dir`, mended where the file lacks some or
 * is damaged (said on stderr), or new ones with `fresh` (`--new-keys`). A folder or file another
 * user could change is refused (exit 2); a folder svc cannot write in, or none at all (`dir`
 * undefined: no home folder), leaves the keys to this run.
 */
export async function demoKeys(
  ctx: Context,
  dir: string | undefined,
  fresh: boolean,
  makeKeys: MakeKeys,
): Promise<DemoKeys> {
  if (dir === undefined) {
    ctx.warn(`${NO_HOME}; the demo keys are made for this run only`);
    return { keys: makeKeys().keys };
  }
  const file = new PrivateFile(dir, KEYS_FILE, WORDS, (message) => ctx.warn(message));
  file.checkFolder();
  if (!fresh) {
    // Most starts: the file is there and whole; no lock needed, as it is only ever replaced whole.
    const read = readKeys(file.readText());
    if (read.kept) {
      const mended = makeKeys(read.kept);
      if (!mended.changed) return { keys: mended.keys, file: file.file };
    }
  }
  try {
    return await file.locked(() => {
      const replaced = fresh && file.exists();
      // Read again under the lock: another mock may have written the file since.
      const read = fresh ? { kept: [] } : readKeys(file.readText());
      const made = makeKeys(read.kept ?? []);
      if (made.changed) file.write(JSON.stringify({ keys: made.keys }, null, 2) + '\n');
      if (replaced)
        ctx.err(
          `New demo keys in ${file.file}: logins saved with the old ones no longer work against svc mock (run \`svc login\` again with a new one).`,
        );
      const mended = fresh ? undefined : mendedNote(file.file, read, made);
      if (mended) ctx.warn(mended);
      return { keys: made.keys, file: file.file };
    });
  } catch (error) {
    // The disk's answer (a folder not writable, a full disk), not a refusal: the keys serve this
    // run.
    const cause =
      error instanceof FileNotWrittenError
        ? error.cause
        : error instanceof CliError
          ? undefined
          : (error as NodeJS.ErrnoException);
    if (typeof cause?.code !== 'string') throw error;
    ctx.warn(
      `cannot keep the demo keys in ${file.file} (${cause.code}); they are made for this run only: set SVC_DATA_DIR to a folder of your own`,
    );
    return { keys: makeKeys().keys };
  }
}

/** The entries of a key file, or why there are none to read (no file: neither). */
function readKeys(text: string | undefined): { kept?: unknown[]; damaged?: string } {
  if (text === undefined) return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { damaged: 'it is not valid JSON' };
  }
  const keys =
    data !== null && typeof data === 'object' ? (data as { keys?: unknown }).keys : undefined;
  return Array.isArray(keys) ? { kept: keys } : { damaged: 'it holds no list of keys' };
}

/** What was mended in a file that was there, in one line; nothing for a file made anew. */
function mendedNote(
  file: string,
  read: { kept?: unknown[]; damaged?: string },
  made: KeptKeys,
): string | undefined {
  if (read.damaged)
    return `the mock key file ${file} is damaged (${read.damaged}); made new demo keys in its place`;
  if (!read.kept) return undefined;
  const parts = [
    ...(made.made > 0
      ? [`made ${made.made} new demo key${made.made === 1 ? '' : 's'} for what it lacked`]
      : []),
    ...(made.dropped > 0
      ? [`left out ${made.dropped} of organisations the mock no longer has`]
      : []),
  ];
  return parts.length > 0
    ? `the mock key file ${file} did not match the mock's organisations: ${parts.join('; ')}; the other keys are kept`
    : undefined;
}

/**
 * The file as the banner names it: under the home folder, as `~/…` (not on Windows, where `~` means
 * nothing).
 */
export function shownPath(
  file: string,
  home: string | undefined,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return file;
  return home && home !== sep && file.startsWith(home + sep) ? `~${file.slice(home.length)}` : file;
}
