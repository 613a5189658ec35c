// Benchmark of a global install (a script, not a test): what a person gets from
//   npm pack && npm install -g ./svc-cli-<version>.tgz
// Packs the project as it is built in dist/ (`npm run bench` builds first; on its own, run
// `npm run build` before), installs the tarball into an empty temporary prefix, then:
//   - counts the packages installed: svc-cli itself plus every folder under its node_modules
//     (scoped ones included, nested node_modules too) that holds a package.json, so each copy of a
//     package counts once per place it is installed, as `npm ls -g --all` would list it;
//   - measures the tarball and the installed size (bytes of the files under lib/node_modules);
//   - checks that the installed `svc --version` prints the version, that `svc mock --port 0 --json
//     --quiet` prints its first line (JSON with the address) and stops on SIGINT with exit 0, and
//     that `man` finds svc.1 with the prefix's share/man on MANPATH (skipped, with a note, where
//     there is no `man`).
//
//   node bench/install.mjs
//
// Target (issue "Package"): at most 20 packages. Exit code 1 when missed or when a check fails.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGET = 20;
const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
// An install as a person would make it, without the network's extras and without asking.
const npmEnv = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_yes: 'true',
};

function npm(args, cwd) {
  const result = spawnSync('npm', args, {
    cwd,
    env: npmEnv,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(`npm ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** The package folders under one node_modules folder, recursively: `@scope/name` and `name`. */
function packagesUnder(nodeModules) {
  if (!existsSync(nodeModules)) return [];
  const found = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue; // .bin, .package-lock.json
    const folders = entry.startsWith('@')
      ? readdirSync(join(nodeModules, entry)).map((inner) => join(nodeModules, entry, inner))
      : [join(nodeModules, entry)];
    for (const folder of folders) {
      if (!existsSync(join(folder, 'package.json'))) continue;
      found.push(folder, ...packagesUnder(join(folder, 'node_modules')));
    }
  }
  return found;
}

/** Bytes of the files under a folder (symbolic links not followed). */
function bytesUnder(path) {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.isFile() ? stat.size : 0;
  return readdirSync(path).reduce((sum, entry) => sum + bytesUnder(join(path, entry)), 0);
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

/**
 * `svc mock` from the install: its first line, then SIGINT; resolves to the line and the exit code.
 */
async function mockRound(bin, env) {
  const mock = spawn(bin, ['mock', '--port', '0', '--json', '--quiet'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  mock.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) =>
    mock.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const timer = setTimeout(() => mock.kill('SIGKILL'), 20_000);
  try {
    const line = await Promise.race([
      new Promise((resolve) => createInterface({ input: mock.stdout }).once('line', resolve)),
      exited.then((code) =>
        Promise.reject(new Error(`svc mock exited ${code} before its first line: ${stderr}`)),
      ),
    ]);
    const { url } = JSON.parse(line);
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url))
      throw new Error(`svc mock printed no address: ${line}`);
    mock.kill('SIGINT');
    const code = await exited;
    if (code !== 0) throw new Error(`svc mock exited ${code} on SIGINT: ${stderr}`);
    return url;
  } finally {
    clearTimeout(timer);
    mock.kill('SIGKILL');
  }
}

if (!existsSync(join(ROOT, 'dist')) || !existsSync(join(ROOT, 'man', 'svc.1'))) {
  console.error('dist/ or man/svc.1 is missing: run `npm run build` first (`npm run bench` does)');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'svc-bench-install-'));
const failures = [];
try {
  const started = Date.now();
  // --ignore-scripts: dist/ is built already, and `prepack` would rebuild it under other users of
  // this checkout.
  const packed = JSON.parse(
    npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT),
  )[0];
  const tarball = join(work, packed.filename);
  const maps = packed.files.filter((file) => file.path.endsWith('.map'));
  if (maps.length > 0)
    failures.push(
      `the tarball carries ${maps.length} source maps (${maps
        .slice(0, 3)
        .map((f) => f.path)
        .join(', ')}${maps.length > 3 ? ', …' : ''})`,
    );

  const prefix = join(work, 'prefix');
  npm(
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--no-audit',
      '--no-fund',
      '--loglevel',
      'error',
      tarball,
    ],
    work,
  );
  const seconds = (Date.now() - started) / 1000;

  const installed = join(prefix, 'lib', 'node_modules', name);
  const packages = [installed, ...packagesUnder(join(installed, 'node_modules'))];
  const names = packages
    .slice(1)
    .map((folder) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).name);
  const bytes = bytesUnder(join(prefix, 'lib', 'node_modules'));

  const bin = join(prefix, 'bin', 'svc');
  const home = join(work, 'home');
  // Nothing but PATH and a private HOME, as on a machine where svc was just installed.
  const env = {
    PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
    HOME: home,
    SVC_CONFIG_DIR: join(home, 'config'),
    SVC_CACHE_DIR: join(home, 'cache'),
    SVC_DATA_DIR: join(home, 'data'),
  };
  const printed = spawnSync(bin, ['--version'], { env, encoding: 'utf8' });
  if (printed.status !== 0 || printed.stdout !== `${version}\n`)
    failures.push(
      `svc --version exited ${printed.status} and printed ${JSON.stringify(printed.stdout)}: ${printed.stderr}`,
    );

  let mockUrl = '';
  try {
    mockUrl = await mockRound(bin, env);
  } catch (error) {
    failures.push(error.message);
  }

  let manPage = '(no man here: not checked)';
  if (spawnSync('man', ['-w', 'man'], { encoding: 'utf8' }).error === undefined) {
    const found = spawnSync('man', ['-w', 'svc'], {
      env: { ...env, MANPATH: join(prefix, 'share', 'man') },
      encoding: 'utf8',
    });
    manPage = found.stdout.trim();
    if (found.status !== 0 || !manPage.startsWith(prefix))
      failures.push(`man -w svc found no page under the prefix: ${found.stderr.trim() || manPage}`);
  }

  const over = packages.length > TARGET;
  console.log(
    `npm pack + npm install -g into an empty prefix; node ${process.version}, npm ${npm(['--version'], work).trim()}`,
  );
  console.log(['figure', 'value', 'target'].join('\t'));
  console.log(
    ['packages installed', packages.length, `≤ ${TARGET}${over ? '  MISSED' : ''}`].join('\t'),
  );
  console.log(['installed size', mb(bytes), ''].join('\t'));
  console.log(
    [
      'tarball',
      `${mb(statSync(tarball).size)} packed, ${mb(packed.unpackedSize)} unpacked, ${packed.entryCount} files`,
      '',
    ].join('\t'),
  );
  console.log(['pack + install', `${seconds.toFixed(1)} s`, ''].join('\t'));
  console.log(['svc --version', printed.stdout.trim(), ''].join('\t'));
  console.log(['svc mock', mockUrl ? `${mockUrl}, stopped by SIGINT` : 'FAILED', ''].join('\t'));
  console.log(['man -w svc', manPage, ''].join('\t'));
  console.log(`packages: ${name}${names.length ? `, ${[...names].sort().join(', ')}` : ''}`);
  if (over) failures.push(`${packages.length} packages installed, more than ${TARGET}`);
} catch (error) {
  failures.push(error.message);
} finally {
  rmSync(work, { recursive: true, force: true });
}
for (const failure of failures) console.log(`FAILED: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
