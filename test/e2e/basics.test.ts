// The outward basics of `svc` (README.md and docs/reference/): version, help for every command,
// usage errors, missing configuration, clear-text refusal, odd keys, and `svc mock` as a real
// process (the installed forms of svc: release.test.ts).
import { type ChildProcess, spawn } from 'node:child_process';

import { afterEach, describe, expect, it } from 'vitest';

import {
  baseEnv,
  inTerminal,
  type Result,
  ROOT,
  run,
  STACK_LINE,
  SVC,
  svcCommand,
  useWorld,
  VERSION,
} from './harness.js';

const world = useWorld();
const tempDir = (prefix: string) => world.tempDir(prefix);

function port(): string {
  return new URL(world.mock.url).port;
}

/**
 * A usage error as a script sees it: exit 2, one message on stderr, nothing on stdout, no stack.
 */
function expectUsageError(result: Result): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.startsWith('error:')).toBe(true);
  expect(result.stderr).not.toMatch(STACK_LINE);
}

describe('svc --version', () => {
  it('prints the version from package.json alone', async () => {
    const result = await world.bare(['--version']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${VERSION}\n`);
    expect(result.stderr).toBe('');
  });
});

describe('help', () => {
  const TOP_LEVEL = [
    'login',
    'logout',
    'whoami',
    'config',
    'reports',
    'parse',
    'match',
    'auth',
    'recurring',
    'statements',
    'usage',
    'mock',
  ];
  const GLOBAL_FLAGS = [
    '--json',
    '--output',
    '--profile',
    '--api-key',
    '--base-url',
    '--debug',
    '--no-color',
    '--timeout',
    '--retries',
  ];

  /**
   * The names in the "Commands:" sections of a help text (the root's are in groups: "Core
   * commands:"…), without `help`.
   */
  function commandsIn(help: string): string[] {
    const lines = help.split('\n');
    const names: string[] = [];
    lines.forEach((heading, start) => {
      if (!/^([A-Z][\w ]* )?[Cc]ommands:\s*$/.test(heading)) return;
      for (const line of lines.slice(start + 1)) {
        if (line.trim() === '') break;
        const match = /^ {2}([a-z][\w-]*)/.exec(line);
        if (match && match[1] !== 'help') names.push(match[1]!);
      }
    });
    return names;
  }

  it('svc --help lists every top-level command, the global flags and examples', async () => {
    const result = await world.bare(['--help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const listed = commandsIn(result.stdout);
    for (const name of TOP_LEVEL) expect(listed, `svc --help should list ${name}`).toContain(name);
    expect(result.stdout).toMatch(/^Examples:$/m);
    expect(result.stdout).toMatch(/^\s+\$ svc /m);
    for (const flag of GLOBAL_FLAGS) expect(result.stdout).toContain(flag);
  });

  it('every command and subcommand has --help with examples and a line naming the global flags', async () => {
    // Walk the tree breadth-first, from what each help text lists.
    const seen = new Map<string, Result>();
    let level: string[][] = TOP_LEVEL.map((name) => [name]);
    while (level.length > 0) {
      const results = await Promise.all(level.map((path) => world.bare([...path, '--help'])));
      const next: string[][] = [];
      level.forEach((path, i) => {
        seen.set(path.join(' '), results[i]!);
        for (const sub of commandsIn(results[i]!.stdout)) next.push([...path, sub]);
      });
      level = next;
    }
    // The walk must have reached the subcommands the README names, or it proves nothing.
    for (const expected of [
      'reports list',
      'reports get',
      'reports match',
      'reports auth',
      'reports identity',
      'reports counterparties',
      'reports recurring',
      'config list',
      'config get',
      'config set',
      'config path',
      'config use',
      'statements list',
    ]) {
      expect([...seen.keys()], `the help walk should reach "svc ${expected}"`).toContain(expected);
    }
    const problems: string[] = [];
    for (const [path, result] of seen) {
      if (result.code !== 0) problems.push(`svc ${path} --help: exit ${result.code}`);
      if (result.stderr !== '')
        problems.push(`svc ${path} --help: stderr ${JSON.stringify(result.stderr)}`);
      if (!/^Examples:$/m.test(result.stdout))
        problems.push(`svc ${path} --help: no "Examples:" section`);
      if (!/^\s+\$ svc /m.test(result.stdout))
        problems.push(`svc ${path} --help: no "$ svc" example line`);
      // As gh: not the global flags again, but one line naming those that apply, and where they are
      // listed.
      if (!/^Global flags: --json\b.*\(svc help global-flags\)$/m.test(result.stdout))
        problems.push(`svc ${path} --help: no "Global flags:" line`);
    }
    expect(problems).toEqual([]);
  });
});

describe('usage errors', () => {
  it.each([
    ['an unknown command', ['frobnicate']],
    ['an unknown subcommand', ['reports', 'frobnicate']],
    ['an unknown flag', ['reports', 'list', '--frobnicate']],
    ['an unknown global flag', ['--frobnicate', 'usage']],
    ['a missing argument', ['reports', 'get']],
    ['a missing flag value', ['reports', 'list', '--limit']],
    ['a missing required flag', ['match', 'rpt_e8699f830adc84b8']],
  ])('%s exits 2 with an error message and no stack trace', async (_what, args) => {
    const result = await world.svc(args);
    expectUsageError(result);
    expect(await world.requests()).toEqual([]);
  });
});

describe('missing configuration', () => {
  const COMMANDS = ['reports list', 'usage', 'statements list', 'reports get rpt_e8699f830adc84b8'];

  it.each(COMMANDS)(
    'no base URL: svc %s exits 2 naming svc login and SVC_BASE_URL',
    async (command) => {
      const args = command.split(' ');
      const result = await world.bare(args, { env: { SVC_API_KEY: world.key().key } });
      expectUsageError(result);
      expect(result.stderr).toContain('svc login');
      expect(result.stderr).toContain('SVC_BASE_URL');
      expect(result.stderr).not.toContain(world.key().key);
      expect(await world.requests()).toEqual([]);
    },
  );

  it.each(COMMANDS)(
    'no key: svc %s exits 3 naming svc login and SVC_API_KEY, and sends nothing',
    async (command) => {
      const args = command.split(' ');
      // CI is unset and stdin is a pipe: still no prompt (a prompt would hang until the harness
      // kills it).
      const result = await world.bare(args, {
        env: { SVC_BASE_URL: world.mock.url, CI: undefined },
      });
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr.startsWith('error:')).toBe(true);
      expect(result.stderr).toContain('svc login');
      expect(result.stderr).toContain('SVC_API_KEY');
      expect(result.stderr).not.toMatch(STACK_LINE);
      expect(await world.requests()).toEqual([]);
    },
  );

  it('no key on a real terminal: exits 3 without a prompt', async () => {
    const dir = tempDir('svc-e2e-tty-');
    const result = await inTerminal(`${svcCommand} reports list`, {
      configDir: dir,
      env: { SVC_BASE_URL: world.mock.url, CI: undefined },
      timeoutMs: 8_000,
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toContain('svc login');
    expect(result.stdout).toContain('SVC_API_KEY');
    expect(await world.requests()).toEqual([]);
  });
});

describe('base URL in clear text', () => {
  it('refuses http:// to a host that is not loopback, before any request', async () => {
    const result = await world.svc(['--base-url', 'http://api.example.com', 'reports', 'list']);
    expectUsageError(result);
    expect(result.stderr).not.toContain(world.key().key);
    expect(await world.requests()).toEqual([]);
  });

  it('refuses http:// to a non-loopback host from SVC_BASE_URL too', async () => {
    const result = await world.svc(['usage'], { env: { SVC_BASE_URL: 'http://10.0.0.1:8080' } });
    expectUsageError(result);
  });

  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port()}`],
    ['localhost', () => `http://localhost:${port()}`],
  ])('accepts http:// to %s', async (_host, url) => {
    const result = await world.bare(['--base-url', url(), 'reports', 'list'], {
      env: { SVC_API_KEY: world.key().key },
    });
    expect(result.stderr).toBe('');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('rpt_e8699f830adc84b8');
    const requests = await world.requests();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/reports']);
  });

  it('accepts other loopback addresses (127.0.0.0/8, ::1) without sending anything', async () => {
    for (const url of ['http://127.1.2.3:8080', 'http://[::1]:8080']) {
      const result = await world.svc(['whoami', '--json', '--local', '--base-url', url]);
      expect(result.code, `${url}: ${result.stderr}`).toBe(0);
      expect(
        (JSON.parse(result.stdout) as { base_url: string }).base_url.startsWith(
          url.replace(/:8080$/, ''),
        ),
      ).toBe(true);
    }
    expect(await world.requests()).toEqual([]);
  });
});

describe('keys given on the command line or in another form', () => {
  it('uses a key of another form as given, with a warning, and the service answers 401 (exit 3)', async () => {
    const odd = 'sk_foo_1234567890abcdef';
    const result = await world.bare(['reports', 'list'], {
      env: { SVC_BASE_URL: world.mock.url, SVC_API_KEY: odd },
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^warning: /m);
    expect(result.stderr).toMatch(/^error: /m);
    expect(result.stderr).not.toContain(odd);
    expect(result.stderr).not.toMatch(STACK_LINE);
    const requests = await world.requests();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.authorization).toBe('Bearer …cdef');
    expect(requests[0]!.status).toBe(401);
  });

  it('warns that --api-key is visible to other users, and uses it', async () => {
    const key = world.key(1, 'test');
    const result = await world.bare(['--api-key', key.key, 'usage'], {
      env: { SVC_BASE_URL: world.mock.url },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warning: .*visible to other users/);
    expect(result.stderr).not.toContain(key.key);
    expect(result.stdout).not.toContain(key.key);
    const requests = await world.requests();
    expect(requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer svc_sk_test_…${key.key.slice(-4)}`,
    ]);
  });

  it('a test-form key alone prints no warning', async () => {
    const result = await world.svc(['usage']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('svc mock as a process', () => {
  let child: ChildProcess | undefined;

  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  function startMock(args: string[]): { child: ChildProcess; stdout: () => string } {
    const dir = tempDir('svc-e2e-mock-');
    const proc = spawn(process.execPath, [SVC, 'mock', '--port', '0', ...args], {
      env: baseEnv(dir),
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    proc.stderr.resume();
    child = proc;
    return { child: proc, stdout: () => out };
  }

  /** Waits (at most `ms`) until the text satisfies `done`; fails with what was seen otherwise. */
  async function until(
    text: () => string,
    done: (text: string) => boolean,
    ms: number,
  ): Promise<string> {
    const deadline = Date.now() + ms;
    while (!done(text())) {
      if (Date.now() > deadline) throw new Error(`gave up waiting; output so far:\n${text()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return text();
  }

  function exitOf(proc: ChildProcess, ms: number): Promise<number | string | null> {
    if (proc.exitCode !== null || proc.signalCode !== null)
      return Promise.resolve(proc.exitCode ?? proc.signalCode);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('still running'), ms);
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve(code ?? signal);
      });
    });
  }

  it('--json prints one line with the URL and 8 keys, serves svc, and stops on SIGINT with exit 0', async () => {
    const mock = startMock(['--json']);
    const text = await until(mock.stdout, (t) => t.includes('\n'), 10_000);
    const first = JSON.parse(text.split('\n')[0]!) as {
      url: string;
      keys: { key: string; mode: string; scope: string; organization_id: string }[];
    };
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.keys).toHaveLength(8);
    for (const k of first.keys) expect(k.key).toMatch(/^svc_sk_(live|test)_\S+$/);

    const key = first.keys.find(
      (k) =>
        k.mode === 'test' && k.scope === 'FULL' && k.organization_id === 'org_4d2a9f61c8e3b705',
    )!;
    expect(key).toBeDefined();
    const listed = await run(['reports', 'list', '--json'], {
      configDir: tempDir('svc-e2e-client-'),
      env: { SVC_BASE_URL: first.url, SVC_API_KEY: key.key },
    });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const ids = (JSON.parse(listed.stdout) as { data: { report_id: string }[] }).data.map(
      (r) => r.report_id,
    );
    expect(ids).toContain('rpt_e8699f830adc84b8');
    expect(ids).not.toContain('rpt_4f932909d44290ba'); // the other organisation's report

    mock.child.kill('SIGINT');
    expect(await exitOf(mock.child, 5_000)).toBe(0);
  });

  it('the plain banner shows the URL and the keys', async () => {
    const mock = startMock([]);
    const text = await until(
      mock.stdout,
      (t) =>
        (t.match(/svc_sk_(live|test)_[0-9a-f]+/g) ?? []).length >= 8 && /svc reports list/.test(t),
      10_000,
    );
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0];
    expect(url).toBeDefined();
    const keys = new Set(text.match(/svc_sk_(live|test)_[0-9a-f]+/g));
    expect(keys.size).toBe(8);
    // The URL on the banner is the one that answers.
    const reply = await fetch(`${url}/v1/usage`, {
      headers: { Authorization: `Bearer ${[...keys][0]}` },
    });
    expect(reply.status).toBe(200);
    mock.child.kill('SIGINT');
    expect(await exitOf(mock.child, 5_000)).toBe(0);
  });
});
