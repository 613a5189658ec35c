// The third entry of the bundle, dist/launch.cjs: what bin/svc.cjs loads to run a command (its
// short paths, `--version`, `--help` and a TAB, need none of it). It loads the program with its
// code cache; the program's content hash is given by the build.
import { join } from 'node:path';

import { type LoadedProgram, loadProgram } from './launch/code-cache.js';

declare const __SVC_PROGRAM_ID__: string;

/** The program of the bundle in `distFolder`, with the code cache of the command line `argv`. */
export function load(distFolder: string, argv: readonly string[]): LoadedProgram {
  return loadProgram({
    file: join(distFolder, 'cli.cjs'),
    id: __SVC_PROGRAM_ID__,
    env: process.env,
    argv,
  });
}
