// A file of svc's that holds keys (the config file, `svc mock`'s demo keys), kept to the user:
// mode 0600, replaced in one step from an exclusive temporary file, never opened or written through
// a symbolic link, never read from or written in a folder or file another user could change, and
// changed by one svc at a time (a lock file beside it). A folder svc creates is 0700; a folder it
// finds keeps the mode its owner gave it.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  type Stats,
  statSync,
} from 'node:fs';
import { join } from 'node:path';

import { UsageError } from './errors.js';
import { replaceFile } from './replace-file.js';

/** How messages name the file, and what they tell the user to do about it. */
export interface PrivateFileWords {
  /** The file: "config file". */
  file: string;
  /** Its folder: "config folder". */
  folder: string;
  /** The variable that sets the folder, for messages. */
  variable: string;
  /** What to do about a file another user owns: "move it away and run `svc login`". */
  ownedByOther: string;
  /** What to do about a file others may change, given the command that closes it. */
  changeable: (chmod: string) => string;
  /**
   * The warning about a file others may read, given the file, its mode and the command that closes
   * it.
   */
  readable: (file: string, mode: string, chmod: string) => string;
}

/**
 * The file could not be written (a lock, a temporary file, the rename): the disk's answer, not a
 * refusal.
 */
export class FileNotWrittenError extends UsageError {
  constructor(
    message: string,
    /** The error of the file system: its `code` says why in a word (EACCES, ENOSPC). */
    override readonly cause: NodeJS.ErrnoException,
  ) {
    super(message);
  }
}

const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 10_000;

/** Modes and owners mean nothing on Windows: the checks on them are for POSIX systems. */
const POSIX = process.platform !== 'win32';

function lockAge(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** A path as a shell word, quoted where it has to be. */
export function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

export class PrivateFile {
  readonly file: string;
  private warnedAboutMode = false;

  /** `warn` receives, once, the warning about a file other users can read. */
  constructor(
    readonly dir: string,
    name: string,
    private readonly words: PrivateFileWords,
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.file = join(dir, name);
  }

  /**
   * Whoever may write in the folder can replace the file: a folder another user owns, or one their
   * group or everyone may write in (even with the sticky bit, as /tmp), is refused, as the reply
   * cache refuses one.
   */
  checkFolder(): void {
    if (!POSIX) return;
    let info: Stats | undefined;
    try {
      // The user may point the folder's variable through a link of their own. No error made for a
      // folder not there: making one costs more than the rest of the config's reading.
      info = statSync(this.dir, { throwIfNoEntry: false });
    } catch {
      info = undefined;
    }
    if (!info) return; // not there yet: svc creates it 0700 (or fails to, and says so)
    const { folder, variable } = this.words;
    const own = `set ${variable} to a folder of your own (mode 0700)`;
    if (info.mode & 0o002)
      throw new UsageError(
        `refusing the ${folder} ${this.dir}: every user can write in it (mode ${octal(info.mode)}); ${own}`,
      );
    if (info.uid !== process.getuid?.())
      throw new UsageError(
        `refusing the ${folder} ${this.dir}: it belongs to another user (uid ${info.uid}); ${own}`,
      );
    if (info.mode & 0o020) {
      throw new UsageError(
        `refusing the ${folder} ${this.dir}: its group can write in it (mode ${octal(info.mode)}); run \`chmod 700 ${shellWord(this.dir)}\`, or ${own}`,
      );
    }
  }

  /** Creates the folder (0700, parents included) where it is not there yet. */
  makeFolder(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** The text of the file, undefined when there is none; opened without following a link. */
  readText(): string | undefined {
    // Nothing at the name, not even a link: no file, without the error opening it would make (any
    // other failure is the opening's to tell).
    let present = true;
    try {
      present = lstatSync(this.file, { throwIfNoEntry: false }) !== undefined;
    } catch {
      // said below
    }
    if (!present) return undefined;
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO planted as the file is reported, not waited on.
      fd = openSync(
        this.file,
        constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP' || code === 'EMLINK') throw this.linked();
      throw new UsageError(
        `cannot read the ${this.words.file} ${this.file}: ${(error as Error).message}`,
      );
    }
    try {
      const info = fstatSync(fd);
      if (!info.isFile())
        throw new UsageError(`the ${this.words.file} ${this.file} is not a regular file`);
      this.checkFile(info);
      this.warnIfShared(info.mode);
      return readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  }

  /** Whether something (a file, a link) is at the file's name. */
  exists(): boolean {
    try {
      lstatSync(this.file);
      return true;
    } catch {
      return false;
    }
  }

  /** Replaces the file in one step, 0600 (a group- or world-readable file comes back as 0600). */
  write(text: string): void {
    this.checkFolder();
    this.makeFolder();
    this.refuseLink();
    try {
      replaceFile(this.file, text, { durable: true });
    } catch (error) {
      throw new FileNotWrittenError(
        `cannot write the ${this.words.file} ${this.file}: ${(error as Error).message}`,
        error as NodeJS.ErrnoException,
      );
    }
  }

  /**
   * Runs `work` holding the file's lock, so that two svc processes changing the file lose nothing.
   */
  async locked<T>(work: () => T): Promise<T> {
    this.checkFolder();
    this.makeFolder();
    const release = await this.lock();
    try {
      return work();
    } finally {
      release();
    }
  }

  /** A file another user owns or may change could say anything svc then trusts. */
  private checkFile(info: Stats): void {
    if (!POSIX) return;
    if (info.uid !== process.getuid?.()) {
      throw new UsageError(
        `refusing the ${this.words.file} ${this.file}: it belongs to another user (uid ${info.uid}); ${this.words.ownedByOther}`,
      );
    }
    if (info.mode & 0o022) {
      throw new UsageError(
        `refusing the ${this.words.file} ${this.file}: other users can change it (mode ${octal(info.mode)}); ${this.words.changeable(`chmod 600 ${shellWord(this.file)}`)}`,
      );
    }
  }

  private warnIfShared(mode: number): void {
    if (!POSIX || (mode & 0o044) === 0 || this.warnedAboutMode) return;
    this.warnedAboutMode = true;
    this.warn(this.words.readable(this.file, octal(mode), `chmod 600 ${shellWord(this.file)}`));
  }

  /**
   * rename() would replace a link, not write through it; still, a link means someone else chose
   * where keys go.
   */
  private refuseLink(): void {
    let isLink = false;
    try {
      isLink = lstatSync(this.file).isSymbolicLink();
    } catch {
      return; // no file yet
    }
    if (isLink) throw this.linked();
  }

  private linked(): UsageError {
    return new UsageError(
      `the ${this.words.file} ${this.file} is a symbolic link; svc keeps keys only in a file of its own: replace the link with a copy of its target`,
    );
  }

  private async lock(): Promise<() => void> {
    const path = `${this.file}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        closeSync(openSync(path, 'wx', 0o600));
        return () => rmSync(path, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new FileNotWrittenError(
            `cannot lock the ${this.words.file} ${this.file}: ${(error as Error).message}`,
            error as NodeJS.ErrnoException,
          );
        }
      }
      // A lock left by a process that died is stale after a while.
      if (lockAge(path) > LOCK_STALE_MS) rmSync(path, { force: true });
      else if (Date.now() > deadline) {
        throw new UsageError(
          `the ${this.words.file} ${this.file} is locked by another svc (${path}); try again`,
        );
      } else await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
    }
  }
}
