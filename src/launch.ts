// The third entry of the bundle, dist/launch.cjs: what bin/svc.cjs loads to run a command (its
// short paths, `--version`, `--help` and a TAB, need none of it). It picks the bundle of the
// command line (launch/route.ts) and loads it with its code cache; the build gives the table of
// bundles and their content hashes.
import { join } from 'node:path';

import { type LoadedProgram, loadProgram } from './launch/code-cache.js';
import { bundleOf, type LaunchTable } from './launch/route.js';

declare const __SVC_BUNDLES__: LaunchTable & {
  /** Each bundle's content hash; `cli`, the whole program. */
  ids: Readonly<Record<string, string>>;
};

/** The program of the bundle in `distFolder` that runs `argv`, with its code cache. */
export function load(distFolder: string, argv: readonly string[]): LoadedProgram {
  const noun = bundleOf(argv, __SVC_BUNDLES__);
  const name = noun === undefined ? 'cli' : `cli-${noun}`;
  return loadProgram({
    file: join(distFolder, `${name}.cjs`),
    id: __SVC_BUNDLES__.ids[name]!,
    kept: Object.values(__SVC_BUNDLES__.ids),
    env: process.env,
    argv,
  });
}
