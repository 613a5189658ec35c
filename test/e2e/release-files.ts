// What `npm run release` made in release/, for the tests that run it: the single executable, the
// tarball and SHA256SUMS. They are used only when made after the latest change to the sources
// (src/, bin/, package.json, the build scripts): a release older than the code it would stand for
// is no release of it. Without one (or with an older one) those tests are skipped with a note; with
// SVC_TEST_REQUIRE_RELEASE=1 (as .ci/run sets, after `npm run release`) they fail instead.
import { lstatSync, mkdirSync, readdirSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';

import { ROOT, VERSION } from './harness.js';

export const RELEASE = join(ROOT, 'release');
export const REQUIRE_RELEASE = !['', '0'].includes(process.env.SVC_TEST_REQUIRE_RELEASE ?? '');

export interface Release {
  /** svc-<version>-linux-x64 */
  executable: string;
  /** svc-cli-<version>.tgz */
  tarball: string;
  sums: string;
}

/** The newest time a file under `path` (or the file itself) was changed, in ms. */
function newest(path: string): number {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** The release made from the sources as they are, or why there is none. */
export function findRelease():
  { release: Release; why?: undefined } | { release?: undefined; why: string } {
  const release = {
    executable: join(RELEASE, `svc-${VERSION}-linux-x64`),
    tarball: join(RELEASE, `svc-cli-${VERSION}.tgz`),
    sums: join(RELEASE, 'SHA256SUMS'),
  };
  const missing = Object.values(release).filter(
    (file) => !statSync(file, { throwIfNoEntry: false })?.isFile(),
  );
  if (missing.length > 0)
    return {
      why: `no release of svc ${VERSION} in release/ (${missing.map((file) => file.slice(RELEASE.length + 1)).join(', ')} missing): npm run release makes it`,
    };
  const made = statSync(release.sums).mtimeMs;
  const sources = ['src', 'bin', 'package.json', 'scripts/build.mjs', 'scripts/release.mjs'].map(
    (path) => join(ROOT, path),
  );
  if (sources.some((path) => newest(path) > made))
    return {
      why: 'release/ was made before the latest change to the sources: npm run release makes it anew',
    };
  return { release };
}

/**
 * Why the tests of the release are skipped (said once on stderr), or undefined when they run: a
 * release is at hand, or SVC_TEST_REQUIRE_RELEASE wants them to fail without one.
 */
export function releaseSkipNote(found: ReturnType<typeof findRelease>): string | undefined {
  if (found.release || REQUIRE_RELEASE) return undefined;
  const note = `${found.why}: its tests are skipped`;
  console.warn(`note: ${note} (set SVC_TEST_REQUIRE_RELEASE=1 to fail instead)`);
  return note;
}

/**
 * A PATH that finds every command of this one but Node's (node, npm, npx, corepack, and any other
 * name of the node running the tests): `folder` (empty) is filled with links to them. What runs
 * with it runs as on a machine without Node.
 */
export function pathWithoutNode(folder: string): string {
  mkdirSync(folder, { recursive: true });
  const node = realpathSync(process.execPath);
  const taken = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack']);
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (taken.has(name)) continue;
      taken.add(name);
      const target = join(dir, name);
      try {
        if (realpathSync(target) === node) continue;
      } catch {
        continue;
      }
      symlinkSync(target, join(folder, name));
    }
  }
  return folder;
}
