// The smoke checks of every form svc ships in (README.md, "Install"), one table run against each:
//   - the npm tarball installed with `npm install -g` (the one `npm run release` made, else one
//     packed here), run by the Node running the tests;
//   - the single executable `npm run release` made (release/svc-<version>-linux-x64), run on a
//     PATH that holds no Node at all. Without a release made from the sources as they are, its
//     checks are skipped with a note, or fail under SVC_TEST_REQUIRE_RELEASE (./release-files.ts).
// Each form runs as installed on a machine of its own (a home, config and data folders): its own
// `svc mock`, a GET against it, `webhooks listen` receiving an event that `sandbox fire` makes the
// mock deliver, bash completion from the script it prints, and `svc login` keeping the key in a
// real Secret Service (./desktop.ts).
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  INSTALL_KEYRING_TOOLS,
  MISSING_KEYRING_TOOLS,
  REQUIRE_KEYRING,
  secretTool,
  startDesktop,
} from './desktop.js';
import { baseEnv, collect, type Result, ROOT, STACK_LINE, VERSION } from './harness.js';
import { findRelease, pathWithoutNode, type Release, releaseSkipNote } from './release-files.js';

const execFileP = promisify(execFile);
const npmEnv = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

const found = findRelease();
const releaseNote = releaseSkipNote(found);

/** Folders and processes of the whole file, removed and stopped at its end. */
const temps: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/**
 * A machine with svc installed in one form: `svc` is the command to run, `path` the PATH it runs
 * with.
 */
interface Machine {
  home: string;
  svc: string;
  path: string;
  /** Its own `svc mock`, started before the checks. */
  mock: { url: string; key: string; child: ChildProcess };
}

/**
 * The installed tarball: release/'s when there is a release, else one packed from a copy of the
 * package.
 */
async function installTarball(release: Release | undefined): Promise<Omit<Machine, 'mock'>> {
  const work = tempDir('svc-smoke-npm-');
  let tarball = release?.tarball;
  if (!tarball) {
    // `prepack` rebuilds dist/ (it deletes the folder first). Packing in a copy of the package
    // keeps that from pulling dist/ out from under svc processes other tests run at the same time.
    const pkg = join(work, 'pkg');
    for (const entry of [
      'package.json',
      'package-lock.json',
      'bin',
      'src',
      'scripts',
      'completions',
      'docs',
      'tsconfig.json',
      'README.md',
      'LICENSE',
    ]) {
      if (existsSync(join(ROOT, entry)))
        cpSync(join(ROOT, entry), join(pkg, entry), { recursive: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    await execFileP('npm', ['pack', '--pack-destination', work], {
      cwd: pkg,
      env: npmEnv,
      maxBuffer: 16 * 1024 * 1024,
    });
    const packed = readdirSync(work).filter((name) => name.endsWith('.tgz'));
    expect(packed).toEqual([`svc-cli-${VERSION}.tgz`]);
    tarball = join(work, packed[0]!);
  }
  const prefix = join(work, 'global');
  await execFileP('npm', ['install', '-g', '--prefix', prefix, tarball], {
    cwd: work,
    env: npmEnv,
    maxBuffer: 16 * 1024 * 1024,
  });
  return {
    home: join(work, 'home'),
    svc: join(prefix, 'bin', 'svc'),
    path: `${join(prefix, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
  };
}

/** The single executable, as a job installs it: one file on a PATH without Node. */
function installExecutable(release: Release | undefined): Omit<Machine, 'mock'> {
  if (!release) throw new Error(found.why);
  const work = tempDir('svc-smoke-exe-');
  const bin = join(work, 'bin');
  mkdirSync(bin);
  symlinkSync(release.executable, join(bin, 'svc'));
  return {
    home: join(work, 'home'),
    svc: join(bin, 'svc'),
    path: `${bin}${delimiter}${pathWithoutNode(join(work, 'tools'))}`,
  };
}

function envOf(
  machine: Omit<Machine, 'mock'>,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { ...baseEnv(machine.home), PATH: machine.path, ...extra };
}

function start(
  machine: Omit<Machine, 'mock'>,
  args: string[],
  env: Record<string, string> = {},
): ChildProcessWithoutNullStreams {
  mkdirSync(machine.home, { recursive: true });
  const child = spawn(machine.svc, args, {
    env: envOf(machine, env),
    cwd: machine.home,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  started.push(child);
  return child;
}

function svc(
  machine: Omit<Machine, 'mock'>,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<Result> {
  const child = start(machine, args, options.env);
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  return collect(child, 30_000);
}

/** The machine's `svc mock`, once it printed its first line (its address and keys). */
async function startMock(machine: Omit<Machine, 'mock'>): Promise<Machine['mock']> {
  const child = spawn(machine.svc, ['mock', '--port', '0', '--json', '--quiet'], {
    env: envOf(machine),
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('svc mock printed nothing within 20 s')),
      20_000,
    );
    child.on('exit', (code) =>
      reject(new Error(`svc mock exited (${code}) before printing its address`)),
    );
    createInterface({ input: child.stdout }).once('line', (first) => {
      clearTimeout(timer);
      resolve(first);
    });
  });
  const { url, keys } = JSON.parse(line) as {
    url: string;
    keys: { key: string; mode: string; scope: string; organization_id: string }[];
  };
  const key = keys.find(
    (k) => k.mode === 'test' && k.scope === 'FULL' && k.organization_id === 'org_4d2a9f61c8e3b705',
  )!.key;
  return { url, key, child };
}

const withKey = (machine: Machine) => ({
  SVC_BASE_URL: machine.mock.url,
  SVC_API_KEY: machine.mock.key,
});

/** What every form must do. */
const SMOKE_CHECKS: { name: string; keyring?: true; check: (machine: Machine) => Promise<void> }[] =
  [
    {
      name: '--version prints the version alone',
      check: async (machine) => {
        const r = await svc(machine, ['--version']);
        expect(r).toEqual({ stdout: `${VERSION}\n`, stderr: '', code: 0 });
      },
    },
    {
      name: '--help lists the commands, with examples',
      check: async (machine) => {
        const r = await svc(machine, ['--help']);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/^Usage: svc /);
        for (const command of ['reports', 'webhooks', 'mock', 'login', 'completion'])
          expect(r.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
        expect(r.stdout).toMatch(/^ {2}\$ svc /m);
      },
    },
    {
      name: 'svc mock answers a GET: reports list as a table, usage as JSON',
      check: async (machine) => {
        const list = await svc(machine, ['reports', 'list'], { env: withKey(machine) });
        expect(list.stderr).toBe('');
        expect(list.code).toBe(0);
        expect(list.stdout).toMatch(/^ID\tSTATUS\t/);
        expect(list.stdout).toMatch(/^rpt_e8699f830adc84b8\t/m);
        const usage = await svc(machine, ['usage', '--json'], { env: withKey(machine) });
        expect(usage.code, usage.stderr).toBe(0);
        // The usage of the key's organisation, Himalaya Microfinance (growth plan, 1,000 parses).
        expect(JSON.parse(usage.stdout)).toMatchObject({ plan: 'growth', quota: 1000 });
      },
    },
    {
      name: 'webhooks listen receives the event sandbox fire makes svc mock deliver, then exits 0',
      check: async (machine) => {
        const dir = tempDir('svc-smoke-listen-');
        const listener = start(
          machine,
          [
            'webhooks',
            'listen',
            '--port',
            '0',
            '--exit-after',
            '1',
            '--wait',
            '30',
            '--json',
            '--ready-file',
            join(dir, 'listen'),
          ],
          withKey(machine),
        );
        listener.stdin.end();
        const listened = collect(listener, 40_000);
        const ready = await svc(machine, ['ready', join(dir, 'listen'), '--wait', '20'], {
          env: withKey(machine),
        });
        expect(ready.code, ready.stderr).toBe(0);
        expect(ready.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
        const created = await svc(machine, ['sandbox', 'create', '--quiet'], {
          env: withKey(machine),
        });
        expect(created.code, created.stderr).toBe(0);
        const id = created.stdout.trim();
        const fired = await svc(machine, ['sandbox', 'fire', id], { env: withKey(machine) });
        expect(fired.code, fired.stderr).toBe(0);
        const events = await listened;
        expect(events.code, events.stderr).toBe(0);
        expect(
          events.stdout
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { event: string; report_id: string }),
        ).toEqual([expect.objectContaining({ event: 'report.ready', report_id: id })]);
      },
    },
    {
      name: 'completion: the bash script it prints completes commands, and values it asks svc for',
      check: async (machine) => {
        const lines = ['svc webh', 'svc sandbox create --scenario sal'];
        const calls = lines.map((line) => {
          const words = line.split(' ');
          return `COMP_WORDS=(${words.join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE='${line}'; COMP_POINT=${line.length}; COMPREPLY=(); _svc; echo "\${COMPREPLY[*]}"`;
        });
        const script = ['source <(svc completion bash)', 'complete -p svc', ...calls].join('\n');
        const child = spawn('/bin/bash', ['--norc', '--noprofile', '-c', script], {
          env: envOf(machine),
          cwd: machine.home,
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        child.stdin.end();
        const r = await collect(child);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout).toBe('complete -F _svc svc\nwebhooks\nsalaried\n');
      },
    },
    {
      name: 'the keyring: svc login keeps the key in the Secret Service, and a request uses it from there',
      keyring: true,
      check: async (machine) => {
        const at = await startDesktop(tempDir('svc-smoke-desktop-'), started);
        const desktop = { ...at.env, SVC_CONFIG_DIR: join(at.home, 'config') };
        const login = await svc(machine, ['login', '--base-url', machine.mock.url, '--with-key'], {
          input: machine.mock.key,
          env: desktop,
        });
        expect(login.code, login.stderr).toBe(0);
        expect(login.stderr).toContain(
          `the key in the Secret Service (service svc, account default, base_url ${machine.mock.url})`,
        );
        expect(login.stderr).not.toMatch(STACK_LINE);
        const lookup = secretTool(at, [
          'lookup',
          'service',
          'svc',
          'account',
          'default',
          'base_url',
          machine.mock.url,
        ]);
        expect(lookup.stdout).toBe(machine.mock.key);
        expect(readFileSync(join(at.home, 'config', 'config.json'), 'utf8')).not.toContain(
          machine.mock.key,
        );
        const usage = await svc(machine, ['usage', '--json'], { env: desktop });
        expect(usage.code, usage.stderr).toBe(0);
        expect(JSON.parse(usage.stdout)).toMatchObject({ plan: 'growth' });
        const whoami = await svc(machine, ['whoami', '--json', '--local'], { env: desktop });
        expect(JSON.parse(whoami.stdout)).toMatchObject({ key_source: 'keyring' });
      },
    },
  ];

const FORMS: {
  name: string;
  npm?: true;
  skip?: string;
  install: () => Promise<Omit<Machine, 'mock'>> | Omit<Machine, 'mock'>;
}[] = [
  {
    name: 'the npm tarball installed with npm install -g',
    npm: true,
    install: () => installTarball(found.release),
  },
  {
    name: 'the single executable for Linux x64, on a PATH without Node',
    skip: releaseNote,
    install: () => installExecutable(found.release),
  },
];

const keyringMissing = MISSING_KEYRING_TOOLS.length > 0;
if (keyringMissing && !REQUIRE_KEYRING)
  console.warn(
    `note: ${MISSING_KEYRING_TOOLS.join(', ')} not installed here: the keyring smoke checks are skipped (${INSTALL_KEYRING_TOOLS})`,
  );

for (const form of FORMS) {
  if (form.skip !== undefined) {
    it.skip(`${form.name}: ${form.skip}`, () => {});
    continue;
  }
  describe(form.name, () => {
    let machine: Machine;
    beforeAll(async () => {
      const installed = await form.install();
      machine = { ...installed, mock: await startMock(installed) };
    }, 180_000);
    afterAll(() => {
      machine?.mock.child.kill('SIGKILL');
    });

    for (const { name, keyring, check } of SMOKE_CHECKS) {
      const skip = keyring && keyringMissing && !REQUIRE_KEYRING;
      (skip ? it.skip : it)(name, { timeout: 60_000 }, async () => {
        if (keyring && keyringMissing)
          throw new Error(
            `${MISSING_KEYRING_TOOLS.join(', ')} not installed, and SVC_TEST_REQUIRE_KEYRING requires them (${INSTALL_KEYRING_TOOLS})`,
          );
        await check(machine);
      });
    }

    if (form.npm) {
      it('installs no native code on Linux: the keyring binary is an optional dependency of macOS and Windows alone', () => {
        const installed = join(
          machine.svc,
          '..',
          '..',
          'lib',
          'node_modules',
          'svc-cli',
          'node_modules',
        );
        const nativeAddons = existsSync(join(installed, '@napi-rs'))
          ? readdirSync(join(installed, '@napi-rs'))
          : [];
        if (process.platform === 'linux') expect(nativeAddons).toEqual([]);
        else expect(nativeAddons.length).toBe(1);
      });
    }
  });
}
