// The file of lookups a run did not resolve: one a line, in input order, so that
// `svc merchants resolve --file <it>` finishes the job. Written atomically (a temporary file
// beside it, then renamed), so a half-written list never looks like a whole one. The temporary
// file is created exclusively, mode 0600, under a name nobody can guess: a link planted beside
// the list is never written through.
import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import {
  access,
  type FileHandle,
  link,
  lstat,
  mkdtemp,
  open,
  rename,
  stat,
  unlink,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

import { UsageError } from '../core/errors.js';
import type { Lookup } from './lookup-set.js';

/**
 * Created here or not at all: O_EXCL fails on any name that exists, a link included (dangling or
 * not), and O_NOFOLLOW says so again for a system that would follow one.
 */
const NEW_FILE_ONLY =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** A default list's name is given a number (`-2` … `-100`) while these are free. */
const NUMBERED_NAMES = 100;

/** `svc-unresolved-20261122-091503.txt`, in the current directory. */
export function defaultUnresolvedPath(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/-|:/g, '')
    .replace('T', '-');
  return resolve(`svc-unresolved-${stamp}.txt`);
}

/**
 * Where the list goes when the working folder takes none: a new folder of svc's own in the
 * temporary folder (mode 0700, under a name nobody can guess), as /tmp is shared by every user:
 * a name there that another user can foresee, they can take first.
 */
export async function privateTemporaryPath(name: string): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'svc-unresolved-')), name);
}

/** Refuses, before any request, a --failed-out whose folder is missing or not writable. */
export async function checkWritable(path: string): Promise<void> {
  const folder = dirname(resolve(path));
  try {
    if (!(await stat(folder)).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
    await access(folder, constants.W_OK);
  } catch (error) {
    throw new UsageError(`--failed-out ${path}: ${whyNot(error, folder)}`);
  }
  try {
    if ((await stat(path)).isDirectory())
      throw new UsageError(`--failed-out ${path}: it is a directory`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
  }
}

/**
 * Writes the lookups to `path`; returns the path written and how many lookups it holds. An
 * explicit path is replaced; the default one never overwrites a file (a number is added instead,
 * or past NUMBERED_NAMES a random suffix).
 */
export async function writeUnresolved(
  path: string,
  lookups: AsyncIterable<Lookup> | Iterable<Lookup>,
  replace: boolean,
): Promise<{ path: string; count: number }> {
  // A device or a pipe (/dev/stdout, a FIFO) is written into: renaming over it would replace it.
  const special = replace ? await specialFile(path) : undefined;
  if (special) {
    const target = await open(
      path,
      constants.O_WRONLY | (special.followLink ? 0 : (constants.O_NOFOLLOW ?? 0)),
    );
    try {
      return { path, count: await writeLines(target, lookups) };
    } finally {
      await target.close();
    }
  }
  const temporary = `${dirname(path)}/.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`;
  const file = await open(temporary, NEW_FILE_ONLY, 0o600);
  let count: number;
  try {
    count = await writeLines(file, lookups);
    await file.sync();
  } catch (error) {
    await file.close();
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await file.close();
  try {
    if (replace) {
      await rename(temporary, path);
      return { path, count };
    }
    // link() fails when the name is taken (a link planted there included, which it never
    // follows), where rename() would replace the file. Past the numbered names, which another
    // user in a shared folder could all take first, a name nobody can foresee.
    for (let n = 1; ; n++) {
      const suffix =
        n === 1 ? '' : n <= NUMBERED_NAMES ? `-${n}` : `-${randomBytes(8).toString('hex')}`;
      const target = path.replace(/(\.txt)?$/, `${suffix}$1`);
      try {
        await link(temporary, target);
        return { path: target, count };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n > NUMBERED_NAMES) throw error;
      }
    }
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

export function whyNot(error: unknown, folder: string): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  // A folder that exists may still take no new file (/proc): ENOENT then names the file, not it.
  if (code === 'ENOENT')
    return existsSync(folder)
      ? `the folder ${folder} takes no new file`
      : `the folder ${folder} does not exist`;
  if (code === 'ENOTDIR') return `${folder} is not a folder`;
  if (code === 'EROFS') return `cannot write in ${folder} (a read-only file system)`;
  if (code === 'EACCES' || code === 'EPERM') return `cannot write in ${folder} (permission denied)`;
  return (error as Error)?.message ?? String(error);
}

/** One lookup a line, in chunks; returns how many were written. */
async function writeLines(
  file: FileHandle,
  lookups: AsyncIterable<Lookup> | Iterable<Lookup>,
): Promise<number> {
  let count = 0;
  let chunk = '';
  for await (const lookup of lookups) {
    chunk += lookup.value + '\n';
    count++;
    if (chunk.length >= 64 * 1024) {
      await file.write(chunk);
      chunk = '';
    }
  }
  await file.write(chunk);
  return count;
}

/**
 * A device or a pipe at `path`, if there is one. A link is followed only under /dev, to the
 * system's own (/dev/stdout, /dev/fd/3); any other link is replaced like a file, not written
 * through.
 */
async function specialFile(path: string): Promise<{ followLink: boolean } | undefined> {
  try {
    const followLink = resolve(path).startsWith('/dev/');
    const info = followLink ? await stat(path) : await lstat(path);
    return info.isFile() || info.isDirectory() || info.isSymbolicLink()
      ? undefined
      : { followLink };
  } catch {
    return undefined;
  }
}
