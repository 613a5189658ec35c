// Loads the bundled program (dist/cli.cjs) with V8's code cache of it. Node 22 and later keep a
// compile cache of their own (the launcher turns it on); Node 20 has none and would parse and
// compile the whole program at every start, a third of a short command's time. So on Node 20 the
// code V8 compiled is kept in svc's cache folder after a run and handed back to V8 at the next.
//
// The cache holds code that will run: it is used only where no other user could have put it (the
// same rule as the reply cache), and it is named by the program's content hash, so a program that
// changed never meets the code of another. V8 itself refuses a cache made by another V8 version or
// with other flags; svc then compiles from source and writes a new one.
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheDir } from '../config/paths.js';
import { readEnv, type Env } from '../core/environment.js';
import { replaceFile } from '../core/replace-file.js';
import { readTrustedFile, untrustedFolderReason } from '../core/trusted-files.js';

export interface Program {
  run(argv: readonly string[]): Promise<number>;
  /** Whether the run's code is worth a cache: not a server's. */
  codeWorthKeeping(): boolean;
}

export interface LoadedProgram {
  program: Program;
  /** Writes the code cache when there was none to use; call once the run is over (it then holds the code the run compiled). */
  keepCode: () => void;
}

export interface LoadOptions {
  /** The bundled program, a CommonJS file. */
  file: string;
  /** The program's content hash, made at build time. */
  id: string;
  env: Env;
}

const PREFIX = 'cli-';

/** Loads the program; with a code cache where this Node needs one and the folder can be trusted. */
export function loadProgram({ file, id, env }: LoadOptions): LoadedProgram {
  const folder = codeFolder(env);
  if (!folder) return { program: createRequire(file)(file) as Program, keepCode: () => {} };
  const bytes = readFileSync(file);
  // The build makes the program ASCII, which reads as Latin-1 several times faster than as UTF-8.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // The build's hash names the program; the file's time, an edit made to it by hand since.
  const edited = Math.trunc(statSync(file).mtimeMs).toString(36);
  const cacheFile = join(folder, `${PREFIX}${id}-${edited}-${process.version}-${process.arch}.bin`);
  const cachedData = readIfTrusted(cacheFile);
  const script = new Script(Module.wrap(source), {
    filename: file,
    cachedData,
  });
  const module = { exports: {} as Program };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  return { program: module.exports, keepCode: () => stale && writeCode(folder, cacheFile, script) };
}

/** The cache, when there is one no other user could have written. */
function readIfTrusted(file: string): Buffer | undefined {
  try {
    return readTrustedFile(file);
  } catch {
    return undefined;
  }
}

/** Where the code cache lives, or undefined where it is not to be used. */
function codeFolder(env: Env): string | undefined {
  // Node 22+: its own compile cache. CI: the launcher keeps every cache off, so runs are alike.
  if (typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function' || readEnv(env, 'CI')) return undefined;
  const root = cacheDir(env);
  const folder = join(root, 'code');
  const untrusted = untrustedFolderReason([
    [root, statSync], // SVC_CACHE_DIR may be the user's own link
    [folder, lstatSync],
  ]);
  return untrusted ? undefined : folder;
}

/** Replaces the cache in one step (an exclusive temporary file renamed), and removes the code of other programs. Never fails the run. */
function writeCode(folder: string, cacheFile: string, script: Script): void {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    replaceFile(cacheFile, script.createCachedData());
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (name.startsWith(PREFIX) && name.endsWith('.bin') && path !== cacheFile) rmSync(path, { force: true });
    }
  } catch {
    // A cache that cannot be written costs this run nothing, and the next only time.
  }
}
