// Loads a bundle of the program (dist/cli*.cjs) with V8's code of it from an earlier run, so that a
// start does not parse and compile the whole program again (a third of a short command's time). The
// code V8 compiled is kept in svc's cache folder after a run and handed back to V8 at the next.
//
// This serves every supported Node. Node 22 and later have a compile cache of their own
// (`module.enableCompileCache`), but it keeps only the code compiled as a file is loaded, not the
// functions a run then compiles: on Node 22 and 24, a request takes 250 to 320 M instructions with
// it against 190 to 200 M with this one (docs/decisions.md, "Its own code cache, not Node's compile
// cache"). Its default folder is also a fixed name in the shared temporary folder.
//
// Each command (`reports list`, `usage`; launch/route.ts names it) has a cache of its own, which
// learns each command run with it once: V8 adds the code a run compiled to the code it was given,
// so a run whose command is not in the cache yet writes it anew, naming that command too (a header
// line before V8's data); other runs write nothing. A cache shared by several commands would make
// each take in the code of all the others it learned (a noun's eight commands: 1.5–5% more work
// at every start). A server's code is never kept.
//
// The cache holds code that will run: it is used only where no other user could have put it (the
// same rule as the reply cache), and it is named by the program's content hash, so a program that
// changed never meets the code of another. V8 itself refuses a cache made by another V8 version or
// with other flags; svc then compiles from source and writes a new one.
import { isAscii } from 'node:buffer';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

import { cacheDir } from '../config/paths.js';
import { replaceFile } from '../core/replace-file.js';
import { readTrustedFile, untrustedFolderReason } from '../core/trusted-files.js';
import { type Env } from '../core/variables.js';
import { readEnv } from '../service/environment.js';

export interface Program {
  run(argv: readonly string[]): Promise<number>;
  /**
   * What the run's code is kept as: its command, '' when it ran none; undefined for a server's,
   * never kept.
   */
  codeWorthKeeping(): string | undefined;
}

export interface LoadedProgram {
  program: Program;
  /**
   * Writes the code cache when there was none to use, or when it did not hold the code of
   * `command` yet ('' for a run of no command); call once the run is over (the cache then holds
   * the code the run compiled, with the code it was given).
   */
  keepCode: (command: string) => void;
}

export interface LoadOptions {
  /** The bundled program, a CommonJS file. */
  file: string;
  /** The program's content hash, made at build time. */
  id: string;
  env: Env;
  /** Which of the program's caches to use: the command the line names (launch/route.ts). */
  part?: string;
  /** The hashes of the programs built with this one (one per bundle), whose caches are kept. */
  kept?: readonly string[];
}

const PREFIX = 'cli-';
/** The header line's first word: a file without it is not a cache of this kind. */
const MAGIC = 'svc-code';
/** Most commands a cache learns: each makes it larger, and it is read at every start. */
const MOST_COMMANDS = 12;
/** Between the program's name and the part's in a cache's file name. */
const PART = '-for-';
/**
 * The largest cache read, 16 MiB: V8's code of the whole program (0.5 MB) is a few times its size;
 * a larger file is not read (a file of 1 GiB would take 2 GiB and 9 s at every start) and is
 * replaced.
 */
const MAX_CODE_BYTES = 16 * 1024 * 1024;

/** Loads the program, with its code cache where the folder can be trusted. */
export function loadProgram({
  file,
  id,
  env,
  part = 'other',
  kept = [],
}: LoadOptions): LoadedProgram {
  const folder = codeFolder(env);
  if (!folder) return { program: createRequire(file)(file) as Program, keepCode: () => {} };
  return loadWithCodeCache(file, id, folder, part, kept);
}

/** The program compiled with the code V8 kept at an earlier run, which this run may extend. */
function loadWithCodeCache(
  file: string,
  id: string,
  folder: string,
  part: string,
  kept: readonly string[],
): LoadedProgram {
  const bytes = readFileSync(file);
  // The build makes the program ASCII, which reads as Latin-1 several times faster than as UTF-8.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // The build's hash names the program; the file's time, an edit made to it by hand since.
  const edited = Math.trunc(statSync(file).mtimeMs).toString(36);
  const program = `${PREFIX}${id}-${edited}-${process.version}-${process.arch}`;
  const cacheFile = join(folder, `${program}${PART}${part}.bin`);
  const { cachedData, learned } = readCode(cacheFile);
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const module = { exports: {} as Program };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  const keepCode = (command: string) => {
    const others = kept.filter((other) => other !== id);
    if (stale)
      writeCode(folder, program, others, cacheFile, script, command === '' ? [] : [command]);
    else if (command !== '' && !learned.includes(command) && learned.length < MOST_COMMANDS)
      writeCode(folder, program, others, cacheFile, script, [...learned, command]);
  };
  return { program: module.exports, keepCode };
}

/** The cache and the commands it learned, when there is one no other user could have written. */
function readCode(file: string): { cachedData?: Buffer; learned: string[] } {
  let bytes: Buffer;
  try {
    bytes = readTrustedFile(file, undefined, MAX_CODE_BYTES + 1);
  } catch {
    return { learned: [] };
  }
  if (bytes.length > MAX_CODE_BYTES) return { learned: [] };
  const end = bytes.indexOf(0x0a);
  const [magic, ...learned] =
    end === -1 ? [] : bytes.toString('latin1', 0, end).trimEnd().split('\t');
  return magic === MAGIC ? { cachedData: bytes.subarray(end + 1), learned } : { learned: [] };
}

/** Where the code cache lives, or undefined where it is not to be used. */
function codeFolder(env: Env): string | undefined {
  // CI: every cache is off, so that runs are alike.
  if (readEnv(env, 'CI')) return undefined;
  const root = cacheDir(env);
  // No home folder and no SVC_CACHE_DIR: a run without the cache only takes longer.
  if (root === undefined) return undefined;
  const folder = join(root, 'code');
  const untrusted = untrustedFolderReason([
    [root, statSync], // SVC_CACHE_DIR may be the user's own link
    [folder, lstatSync],
  ]);
  return untrusted ? undefined : folder;
}

/**
 * The header line of a cache naming the commands it learned, padded with spaces to a multiple of 8
 * bytes: V8 copies code that does not start at such an offset (430 KB of it, at every start).
 */
function header(learned: readonly string[]): Buffer {
  const line = [MAGIC, ...learned].join('\t');
  return Buffer.from(`${line.padEnd(Math.ceil((line.length + 1) / 8) * 8 - 1)}\n`, 'latin1');
}

/**
 * Replaces the cache in one step (an exclusive temporary file renamed), its header naming the
 * commands `learned`, and removes the caches of other programs (not `program`'s other parts, nor
 * those of the programs whose hashes are `others`, built with it). Never fails the run.
 */
function writeCode(
  folder: string,
  program: string,
  others: readonly string[],
  cacheFile: string,
  script: Script,
  learned: readonly string[],
): void {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    replaceFile(cacheFile, Buffer.concat([header(learned), script.createCachedData()]));
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (
        name.startsWith(PREFIX) &&
        name.endsWith('.bin') &&
        !name.startsWith(`${program}${PART}`) &&
        !others.some((other) => name.startsWith(`${PREFIX}${other}-`))
      )
        rmSync(path, { force: true });
    }
  } catch {
    // A cache that cannot be written costs this run nothing, and the next only time.
  }
}
