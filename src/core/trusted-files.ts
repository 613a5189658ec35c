// Whether a file svc keeps for itself (a cached reply, compiled code, a server's state) could have
// been put there by another user of a shared machine: it and its folders must be the user's own
// and writable by nobody else.
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  type Stats,
  statSync,
} from 'node:fs';

/**
 * Why the first existing folder of the list is not to be trusted, or undefined. A missing folder is
 * made by svc, 0700.
 */
export function untrustedFolderReason(
  folders: [string, (path: string) => Stats][],
): string | undefined {
  for (const [path, stat] of folders) {
    let info: Stats;
    try {
      info = stat(path);
    } catch {
      return undefined;
    }
    if (info.isSymbolicLink()) return `${path} is a symbolic link`;
    const reason = distrustReason(path, info);
    if (reason) return reason;
  }
  return undefined;
}

/**
 * Why a file of the user's own in `folder` could still be replaced by another user: the folder is
 * theirs (root aside, who can do anything anyway), or they may write in it. A folder every user
 * may write in that has the sticky bit, as /tmp, is safe: there only a file's owner may rename or
 * remove it. Throws when the folder cannot be looked at (ENOENT for none).
 */
export function sharedFolderReason(folder: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined; // Windows: no owners or mode bits to go by
  const info = statSync(folder);
  if (info.uid !== uid && info.uid !== 0) return `${folder} belongs to another user`;
  if (info.mode & 0o022 && !(info.mode & 0o1000))
    return `other users can write in ${folder} (mode ${octal(info.mode)})`;
  return undefined;
}

/** Why another user could have written this file or folder: they own it, or may write in it. */
function distrustReason(path: string, info: Stats): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined; // Windows: no owners or mode bits to go by
  if (info.uid !== uid) return `${path} belongs to another user`;
  if (info.mode & 0o022) return `other users can write in ${path} (mode ${octal(info.mode)})`;
  return undefined;
}

const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(4, '0');

/**
 * The bytes of a regular file of the user's own that nobody else can write, opened without
 * following a link, and at most `maxBytes` of them. Throws when it cannot be opened, and when it
 * is not to be trusted: then after telling `distrusted` why.
 */
export function readTrustedFile(
  file: string,
  distrusted: (reason: string) => void = () => {},
  maxBytes = Number.POSITIVE_INFINITY,
): Buffer {
  const fd = openSync(
    file,
    constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
  );
  try {
    const info = fstatSync(fd);
    const reason = info.isFile() ? distrustReason(file, info) : `${file} is not a regular file`;
    if (reason) {
      distrusted(reason);
      throw new Error(reason);
    }
    if (maxBytes === Number.POSITIVE_INFINITY) return readFileSync(fd);
    // What the file holds as it is opened (as readFileSync reads), so a bound of megabytes costs a
    // small file nothing.
    const bytes = Buffer.alloc(Math.min(maxBytes, info.size));
    let length = 0;
    while (length < bytes.length) {
      const read = readSync(fd, bytes, length, bytes.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return bytes.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
