// The third entry of the bundle, dist/launch.cjs: what bin/svc.cjs loads to run a command (its
// short paths, `--version`, `--help` and a TAB, need none of it). It picks the bundle of the
// command line and its code cache (launch/route.ts) and loads it; the build gives the table of
// bundles and their content hashes.
import { join } from 'node:path';

import { type LoadedProgram, loadProgram } from './launch/code-cache.js';
import { type LaunchTable, routeOf } from './launch/route.js';

declare const __SVC_BUNDLES__: LaunchTable & {
  /** Each bundle's content hash; `cli`, the whole program. */
  ids: Readonly<Record<string, string>>;
};

/** The program of the bundle in `distFolder` that runs `argv`, with its code cache. */
export function load(distFolder: string, argv: readonly string[]): LoadedProgram {
  const { bundle, cache } = routeOf(argv, __SVC_BUNDLES__);
  const name = bundle === undefined ? 'cli' : `cli-${bundle}`;
  return loadProgram({
    file: join(distFolder, `${name}.cjs`),
    id: __SVC_BUNDLES__.ids[name]!,
    kept: Object.values(__SVC_BUNDLES__.ids),
    env: process.env,
    part: cache,
  });
}
