// One error style, in-process: every mistake commander finds on the command line is written in
// svc's words (one `error:` line, a "did you mean" where a name is near, where to read more),
// exits 2 and sends nothing; with a machine format (--json, --jq, -o json|ndjson|csv) and stderr
// not a terminal it is one JSON line on stderr, as an API error is, while a person at a terminal
// reads the text lines. Then each hint as it reads, word for word.
import { describe, expect, it } from 'vitest';

import { signatureHeader } from '../../src/webhooks/signature.js';
import { FakeService, NOW, svc, unwrapped } from '../support/in-process.js';

/** [argv, stderr as a person reads it]. */
const MISTAKES: [string[], string][] = [
  // A value not among a flag's choices (commander: "option '--status <status>' argument 'done' is
  // invalid. Allowed choices are …").
  [
    ['reports', 'list', '--status', 'done'],
    'error: --status takes one of complete, processing, failed, not "done"\n',
  ],
  [
    ['reports', 'list', '--status', 'faild'],
    'error: --status takes one of complete, processing, failed, not "faild"\nDid you mean "failed"?\n',
  ],
  [
    ['-o', 'jsn', 'usage'],
    'error: --output takes one of table, wide, json, ndjson, csv, not "jsn"\nDid you mean "json"?\n',
  ],
  // An argument's (commander: "command-argument value 'powershell' is invalid for argument
  // 'shell'…").
  [['completion', 'powershell'], 'error: SHELL takes one of bash, zsh, fish, not "powershell"\n'],
  [
    ['completion', 'bahs'],
    'error: SHELL takes one of bash, zsh, fish, not "bahs"\nDid you mean "bash"?\n',
  ],
  // A value its parser refuses.
  [
    ['--max-reply-size', '9Z', 'usage'],
    'error: --max-reply-size takes a size from 1 byte to 500M, such as 200M, not "9Z"\n',
  ],
  // Unknown flag (commander: "unknown option '--limt'").
  [
    ['reports', 'list', '--limt', '5'],
    'error: unknown flag "--limt"\nDid you mean "--limit"?\nRun `svc reports list --help` for the flags it takes.\n',
  ],
  [
    ['reports', 'list', '--zzzz'],
    'error: unknown flag "--zzzz"\nRun `svc reports list --help` for the flags it takes.\n',
  ],
  // Unknown command.
  [
    ['repots'],
    'error: unknown command "repots"\nDid you mean "reports"?\nRun `svc --help` for the commands.\n',
  ],
  [
    ['reports', 'lsit'],
    'error: unknown command "lsit" in svc reports\nDid you mean "list"?\nRun `svc reports --help` for its commands.\n',
  ],
  // Missing argument (commander: "missing required argument 'id'").
  [
    ['reports', 'get'],
    'error: missing argument ID: report id\nUsage: svc reports get <id> [flags]\n',
  ],
  // A flag without its value (commander: "option '--status <status>' argument missing").
  [
    ['reports', 'list', '--status'],
    'error: --status needs a value: one of complete, processing, failed\nUsage: svc reports list [flags]\n',
  ],
  // A required flag not given (commander: "required option '--name <name>' not specified").
  [
    ['match', 'rpt_1'],
    'error: missing --name: the claimed name, e.g. "Ram Bahadur Shrestha"\nUsage: svc match <id> [flags]\n',
  ],
  // Too many arguments (commander: "too many arguments for 'get'. Expected 1 argument but got 2.").
  [
    ['match', 'rpt_1', '--name', 'Ram', 'Bahadur'],
    'error: svc match takes 1 argument (ID), and "Bahadur" is one too many\nA value with spaces needs quotes: "Ram Bahadur Shrestha", not Ram Bahadur Shrestha.\nUsage: svc match <id> [flags]\n',
  ],
  [['usage', 'now'], 'error: svc usage takes no arguments, not "now"\nUsage: svc usage [flags]\n'],
];

describe.each([
  ['a person', true],
  ['a script', false],
] as const)('a mistake on the command line, for %s', (_who, tty) => {
  it.each(MISTAKES)(
    "svc %j: one error line in svc's words, exit 2, nothing sent",
    async (argv, stderr) => {
      const result = await svc(argv, { tty });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toBe(stderr);
      expect(result.stderr).not.toMatch(
        /Allowed choices|command-argument|unknown option|required option|'\S+'/,
      );
      expect(result.requests).toEqual([]);
    },
  );
});

describe('a mistake on the command line, with machine output', () => {
  it.each(
    MISTAKES.flatMap(([argv, stderr]) => [
      [[...argv, '--json'], stderr],
      [['-o', 'ndjson', ...argv], stderr],
    ]),
  )('svc %j: the same words as one JSON line on stderr', async (argv, stderr) => {
    if (argv.includes('jsn') && !argv.includes('--json')) return; // -o ndjson -o jsn: the last -o wins, and it is no machine output.
    const result = await svc(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    const [message, ...hints] = stderr.trimEnd().split('\n');
    expect(JSON.parse(result.stderr)).toEqual({
      error_code: 'USAGE',
      error_message: message!.replace(/^error: /, ''),
      ...(hints.length > 0 && { suggested_action: hints.join(' ') }),
    });
  });

  it.each([['--json'], ['-o', 'ndjson']])(
    '%s: any other failure is one JSON line too, named by its exit code, with the advice',
    async (...flags) => {
      const refused = () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      };
      const network = await svc(['reports', 'list', ...flags, '--retries', '0'], {
        service: new FakeService().expect('GET', '/v1/reports', refused),
      });
      expect(network.code).toBe(9);
      expect(network.stdout).toBe('');
      expect(network.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(network.stderr)).toEqual({
        error_code: 'NETWORK',
        error_message: expect.stringMatching(/^connection refused by svc\.test/),
        suggested_action: 'Is the service running at that address?',
      });
      const notJson = await svc(['reports', 'list', ...flags], {
        service: new FakeService().expect('GET', '/v1/reports', { raw: '<html>' }),
      });
      expect(notJson.code).toBe(10);
      expect(JSON.parse(notJson.stderr)).toMatchObject({
        error_code: 'UNEXPECTED_REPLY',
        error_message: expect.stringMatching(/not JSON/),
      });
    },
  );

  it('an id of 100,000 characters is refused before any request, and no line of text on stderr echoes it whole', async () => {
    const id = 'a'.repeat(100_000);
    const result = await svc(['reports', 'get', id], { service: new FakeService() });
    expect(result.code).toBe(2);
    expect(unwrapped(result.stderr)).toMatch(
      /^error: the report id "a{20}…" is 100000 characters long; an id has at most 256$/m,
    );
    const status = await svc(['reports', 'list', '--status', id], { service: new FakeService() });
    expect(status.code).toBe(2);
    for (const line of status.stderr.trimEnd().split('\n'))
      expect(line.length).toBeLessThanOrEqual(2001);
    expect(status.stderr).toMatch(/…$/m);
  });

  it('-o json after the mistake counts too, and a usage error a command finds is JSON as well', async () => {
    const late = await svc(['reports', 'list', '--status', 'done', '-o', 'json']);
    expect(JSON.parse(late.stderr)).toMatchObject({
      error_code: 'USAGE',
      error_message: '--status takes one of complete, processing, failed, not "done"',
    });
    const checked = await svc(['reports', 'list', '--limit', '500', '--output=json']);
    expect(checked.code).toBe(2);
    expect(JSON.parse(checked.stderr)).toEqual({
      error_code: 'USAGE',
      error_message: '--limit takes a whole number from 1 to 100, not "500"',
    });
    // CSV is a machine format too (docs/reference/exit-codes.md); a table is for people: the error
    // stays a line of text.
    const csv = await svc(['reports', 'list', '--limit', '500', '-o', 'csv']);
    expect(csv.code).toBe(2);
    expect(JSON.parse(csv.stderr)).toEqual({
      error_code: 'USAGE',
      error_message: '--limit takes a whole number from 1 to 100, not "500"',
    });
    expect((await svc(['reports', 'list', '--limit', '500'])).stderr).toBe(
      'error: --limit takes a whole number from 1 to 100, not "500"\n',
    );
  });
});

/** Every machine format: each asks for the JSON error line, unless a person reads stderr. */
const MACHINE_FORMATS = [
  ['--json'],
  ['--jq', '.'],
  ['-o', 'json'],
  ['-o', 'ndjson'],
  ['-o', 'csv'],
];
const NOT_FOUND = {
  error_type: 'INVALID_REQUEST_ERROR',
  error_code: 'REPORT_NOT_FOUND',
  error_message: 'No report rpt_0000000000000000.',
  suggested_action: 'List your reports with svc reports list.',
  request_id: 'req_7f3a',
};
const notFound = () =>
  new FakeService().expect('GET', '/v1/reports/rpt_0000000000000000', {
    status: 404,
    body: NOT_FOUND,
  });
const refused = () =>
  new FakeService().expect('GET', '/v1/reports/rpt_0000000000000000', () => {
    throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  });
/**
 * Three failures: the service's (404), a usage error svc finds, and no service at all (refused).
 */
const FAILURES = [
  {
    what: 'an API error',
    argv: ['reports', 'get', 'rpt_0000000000000000'],
    service: notFound,
    exit: 5,
    text: 'error: REPORT_NOT_FOUND: No report rpt_0000000000000000.\nList your reports with svc reports list.\nRequest ID: req_7f3a\n',
    json: NOT_FOUND,
  },
  {
    what: 'a usage error',
    argv: ['reports', 'list', '--limit', '500'],
    service: () => new FakeService(),
    exit: 2,
    text: 'error: --limit takes a whole number from 1 to 100, not "500"\n',
    json: {
      error_code: 'USAGE',
      error_message: '--limit takes a whole number from 1 to 100, not "500"',
    },
  },
  {
    what: 'a network error',
    argv: ['reports', 'get', 'rpt_0000000000000000', '--retries', '0'],
    service: refused,
    exit: 9,
    text: /^error: connection refused by svc\.test[^\n]*\nIs the service running at that address\?\n$/,
    json: {
      error_code: 'NETWORK',
      error_message: expect.stringMatching(/^connection refused by svc\.test/),
      suggested_action: 'Is the service running at that address?',
    },
  },
];

describe.each(MACHINE_FORMATS)('an error under %s', (...format) => {
  it.each(FAILURES)(
    '$what, stderr on a terminal (stdout piped into jq): the text lines a person reads',
    async ({ argv, service, exit, text }) => {
      const result = await svc([...argv, ...format], {
        tty: true,
        stdoutTTY: false,
        service: service(),
      });
      expect(result.code).toBe(exit);
      expect(result.stdout).toBe('');
      if (typeof text === 'string') expect(result.stderr).toBe(text);
      else expect(result.stderr).toMatch(text);
    },
  );

  it.each(FAILURES)(
    '$what, all three on a terminal: the text lines too',
    async ({ argv, service, exit, text }) => {
      const result = await svc([...argv, ...format], { tty: true, service: service() });
      expect(result.code).toBe(exit);
      expect(result.stdout).toBe('');
      if (typeof text === 'string') expect(result.stderr).toBe(text);
      else expect(result.stderr).toMatch(text);
    },
  );

  it.each(FAILURES)(
    '$what, stderr not a terminal (a script, or `2> err.log` at a terminal): one compact JSON line',
    async ({ argv, service, exit, json }) => {
      for (const options of [{ tty: false }, { tty: true, stderrTTY: false }]) {
        const result = await svc([...argv, ...format], { ...options, service: service() });
        expect(result.code).toBe(exit);
        expect(result.stdout).toBe('');
        expect(result.stderr.endsWith('\n')).toBe(true);
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(JSON.parse(result.stderr)).toEqual(json);
      }
    },
  );
});

describe('a mistake on the command line under a machine format, stderr on a terminal', () => {
  it.each(MACHINE_FORMATS)("%s: the text lines, in svc's words", async (...format) => {
    const result = await svc(['reports', 'list', '--limt', '5', ...format], {
      tty: true,
      stdoutTTY: false,
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: unknown flag "--limt"\nDid you mean "--limit"?\nRun `svc reports list --help` for the flags it takes.\n',
    );
  });

  it('--json with -o csv (flags that conflict): the text line, then JSON once stderr is no terminal', async () => {
    const person = await svc(['usage', '--json', '-o', 'csv'], { tty: true, stdoutTTY: false });
    expect(person.code).toBe(2);
    expect(person.stderr).toBe('error: --json conflicts with --output csv\n');
    const script = await svc(['usage', '--json', '-o', 'csv']);
    expect(JSON.parse(script.stderr)).toEqual({
      error_code: 'USAGE',
      error_message: '--json conflicts with --output csv',
    });
  });
});

describe('hints, as they read now', () => {
  it('svc login with no key to save says why svc cannot ask, and names SVC_API_KEY', async () => {
    const login = ['login', '--base-url', 'https://svc.test'];
    const inCI = await svc(login, { tty: true, env: { CI: 'true', SVC_API_KEY: undefined } });
    expect(inCI.code).toBe(2);
    expect(inCI.stderr).toBe(
      'error: no API key to save, and svc cannot ask for one: CI is set\nPipe it in: printf %s "$SVC_API_KEY" | svc login --with-key\n',
    );
    const noTerminal = await svc(login, { env: { CI: undefined, SVC_API_KEY: undefined } });
    expect(noTerminal.stderr.split('\n')[0]).toBe(
      'error: no API key to save, and svc cannot ask for one: there is no terminal',
    );
    expect(`${inCI.stderr}${noTerminal.stderr}`).not.toContain('SVC_KEY"');
  });

  it('a base URL ending in /v1 is refused in those words', async () => {
    const result = await svc(['usage'], { env: { SVC_BASE_URL: 'https://svc.test/v1' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: the base URL must not end in /v1: use https://svc.test\n');
  });

  it('an http base URL to another machine is refused, naming the loopback addresses http is allowed to', async () => {
    const result = await svc(['usage'], { env: { SVC_BASE_URL: 'http://svc.test' } });
    expect(result.code).toBe(2);
    expect(unwrapped(result.stderr).split('\n')[0]).toBe(
      'error: the base URL "http://svc.test" uses http to svc.test; use https (http is only for localhost, 127.0.0.1 or ::1)',
    );
  });

  it('merchants resolve: standard input of blank lines "holds no lookups", not "-"', async () => {
    const result = await svc(['merchants', 'resolve', '--file', '-'], { stdin: '\n\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '\nstandard input holds no lookups (blank lines are skipped).\n',
    );
  });

  it.each([
    [0, 'stale: signed 56 years ago, more than the 300 s allowed'],
    [2 * 3600 + 5, 'stale: signed 2 hours ago, more than the 300 s allowed'],
    [45 * 60, 'stale: signed 45 minutes ago, more than the 300 s allowed'],
    [301, 'stale: signed 301 s ago, more than the 300 s allowed'],
  ])(
    'webhooks verify: a delivery signed %i s before now is stale in words a person reads',
    async (ago, reason) => {
      const now = Math.floor(NOW / 1000);
      const body = '{"event":"report.ready"}';
      const header = signatureHeader('whsec_test', body, ago === 0 ? 0 : now - ago);
      const result = await svc(['webhooks', 'verify', '--header', header], {
        stdin: body,
        env: { SVC_WEBHOOK_SECRET: 'whsec_test' },
      });
      expect(result.code).toBe(6);
      expect(unwrapped(result.stderr)).toBe(`error: invalid delivery: ${reason}\n`);
    },
  );

  it('HTTP_502 without an envelope: the status in words, with the attempts made', async () => {
    const page = {
      status: 502,
      raw: '<html>bad gateway</html>',
      headers: { 'content-type': 'text/html' },
    };
    const retried = await svc(['usage'], {
      service: new FakeService()
        .expect('GET', '/v1/usage', page)
        .expect('GET', '/v1/usage', page)
        .expect('GET', '/v1/usage', page),
    });
    expect(retried.code).toBe(8);
    expect(unwrapped(retried.stderr).split('\n')[0]).toBe(
      'error: HTTP_502: 502 Bad Gateway, after 3 attempts: a gateway or proxy in front of the service got no valid reply from it (the body is no error from the service: "<html>bad gateway</html>")',
    );
    const once = await svc(['usage', '--retries', '0', '--json'], {
      service: new FakeService().expect('GET', '/v1/usage', page),
    });
    expect(once.code).toBe(8);
    expect(JSON.parse(once.stderr)).toMatchObject({
      error_code: 'HTTP_502',
      error_message: expect.stringMatching(
        /^502 Bad Gateway, after 1 attempt \(--retries 0\): a gateway or proxy/,
      ),
    });
  });
});
