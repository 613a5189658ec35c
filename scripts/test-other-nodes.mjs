// `npm run test:other-nodes`: the unit, in-process and start-up tests again under each supported
// Node major other than the one running this script (npm test has run them all under it). Builds
// are the official ones, from the npm registry (the package node-<platform>-<arch>), fetched once
// into a cache folder and used from there after. Run after `npm test`, which builds dist/ (the
// start-up tests run the built svc).
//
//   node scripts/test-other-nodes.mjs [MAJOR ...]    (default: every supported major)
//
// SVC_TEST_NODE_CACHE names the cache folder (default: ~/.cache/svc-test-nodes). Exits non-zero
// when a Node cannot be fetched, is refused, or a suite fails under one.
//
// The builds are the ones the repository records, checked as scripts/node-builds.mjs says.
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { nodeBinFolder, openCache } from './node-builds.mjs';

/** The Node majors svc supports (package.json's engines agrees; README.md, "Install"). */
const SUPPORTED = [20, 22, 24];
const SUITES = ['test/unit', 'test/commands', 'test/e2e/startup.test.ts'];

const root = fileURLToPath(new URL('..', import.meta.url));
const running = Number(process.versions.node.split('.')[0]);
const asked = process.argv.slice(2).map(Number);
const majors = (asked.length ? asked : SUPPORTED).filter((major) => major !== running);

try {
  openCache();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
let failed = 0;
for (const major of majors) {
  let bin;
  try {
    bin = nodeBinFolder(major);
  } catch (error) {
    console.error(`Node ${major}: ${error.message}`);
    failed++;
    continue;
  }
  const node = join(bin, 'node');
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`\n# Node ${version}: ${SUITES.join(' ')}`);
  // Its bin/ first on the PATH, so that what the tests start as `node` is this Node too.
  const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  const run = spawnSync(
    node,
    [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...SUITES],
    { cwd: root, env, stdio: 'inherit' },
  );
  if (run.status !== 0) {
    console.error(`Node ${version}: the tests failed (exit ${run.status ?? run.signal})`);
    failed++;
  }
}
process.exit(failed > 0 ? 1 : 0);
