// `--jq EXPRESSION` (jq itself, compiled to WebAssembly) and JSON coloured on a terminal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { colorJson } from '../../src/core/output/json.js';
import { FakeService, MODES, plain, svc } from '../support/in-process.js';

const REPORTS = {
  data: [
    {
      report_id: 'rpt_9f2c41d07ab35e18',
      status: 'complete',
      bank: 'NABIL',
      created_at: '2026-11-20T10:00:00Z',
    },
    {
      report_id: 'rpt_0a1b2c3d4e5f6a7b',
      status: 'processing',
      bank: 'KUMARI',
      created_at: '2026-11-21T10:00:00Z',
    },
  ],
  has_more: false,
};
const USAGE = { plan: 'growth', quota: 10000, used: 12, remaining: 9988, ratio: 1.5 };
/** A number past what a double holds, as a service may send it. */
const BIG = '{"plan":"growth","big":100000000000000000001,"ratio":1.50}';
const reports = () =>
  new FakeService().expect('GET', (request) => request.path.startsWith('/v1/reports'), {
    body: REPORTS,
  });
const usage = () => new FakeService().expect('GET', '/v1/usage', { body: USAGE });

describe('--jq', () => {
  it('prints the results, strings raw, one per line, as gh does', async () => {
    const result = await svc(['reports', 'list', '--jq', '.data[].report_id'], {
      service: reports(),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('rpt_9f2c41d07ab35e18\nrpt_0a1b2c3d4e5f6a7b\n');
    expect(result.stderr).toBe('');
  });

  it('prints other values as jq does, numbers with their digits as received', async () => {
    const result = await svc(['usage', '--jq', '{plan, big, ratio}'], {
      service: new FakeService().expect('GET', '/v1/usage', { raw: BIG }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      '{\n  "plan": "growth",\n  "big": 100000000000000000001,\n  "ratio": 1.50\n}\n',
    );
  });

  it('is plain on a terminal too: no colour inside what jq is given', async () => {
    const result = await svc(['usage', '--jq', '.plan'], { tty: true, service: usage() });
    expect(result.stdout).toBe('growth\n');
  });

  it('drops the control characters of a raw string on a terminal, and gives a pipe the string as jq does', async () => {
    const hostile = () =>
      new FakeService().expect('GET', '/v1/usage', { body: { plan: 'gro\u001b[31mwth\u0007' } });
    expect((await svc(['usage', '--jq', '.plan'], { tty: true, service: hostile() })).stdout).toBe(
      'gro[31mwth\n',
    );
    expect((await svc(['usage', '--jq', '.plan'], { service: hostile() })).stdout).toBe(
      'gro\u001b[31mwth\u0007\n',
    );
  });

  it('refuses an expression jq cannot compile before any request (exit 2, JSON on stderr)', async () => {
    const result = await svc(['reports', 'list', '--jq', '.data['], { service: new FakeService() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({
      error_code: 'USAGE',
      error_message: '--jq: syntax error, unexpected end of file',
    });
    expect(result.requests).toEqual([]);
  });

  it('names an undefined function as jq does', async () => {
    const result = await svc(['usage', '--jq', '.plan | nosuch'], { service: new FakeService() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nosuch/0 is not defined');
  });

  it("an expression that fails on the reply is exit 1 with jq's message, and nothing on stdout", async () => {
    const result = await svc(['usage', '--jq', '.[0]'], { service: usage() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--jq: Cannot index object with number');
  });

  it('is exit 1 with one line of its own when jq runs out of room, and says it as JSON (--jq is machine output)', async () => {
    const result = await svc(['usage', '--jq', 'def f: [f]; f'], { service: usage() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(JSON.parse(result.stderr)).toEqual({
      error_code: 'FAILURE',
      error_message:
        '--jq: jq stopped: the expression needs more memory, or deeper recursion, than jq has',
    });
  });

  it('gives jq no environment: $ENV and env are empty, so no expression reaches the key', async () => {
    const result = await svc(['usage', '--jq', '[$ENV, env]'], { service: usage() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{}, {}]);
  });

  it('filters a reply of several megabytes, and gives a large output whole', async () => {
    const data = Array.from({ length: 40_000 }, (_, i) => ({
      report_id: `rpt_${String(i).padStart(16, '0')}`,
      status: 'complete',
      bank_code: 'NABIL',
      created_at: '2026-05-20T08:30:00Z',
    }));
    const service = new FakeService().expect(
      'GET',
      (request) => request.path.startsWith('/v1/reports'),
      { body: { data } },
    );
    const result = await svc(['reports', 'list', '--jq', '.data[].report_id'], { service });
    expect(result.code, result.stderr).toBe(0);
    const ids = result.stdout.trimEnd().split('\n');
    expect(ids).toHaveLength(40_000);
    expect(ids.at(-1)).toBe('rpt_0000000000039999');
  });

  it('conflicts with -o csv and -o table (exit 2), and goes with --json', async () => {
    for (const format of ['csv', 'table', 'ndjson']) {
      const result = await svc(['usage', '--jq', '.plan', '-o', format], {
        service: new FakeService(),
      });
      expect(result.code, format).toBe(2);
      expect(result.stderr).toContain(
        `--jq filters JSON output; it conflicts with --output ${format}`,
      );
    }
    const result = await svc(['usage', '--jq', '.plan', '--json'], { service: usage() });
    expect(result.stdout).toBe('growth\n');
  });

  it('filters commands that print JSON without a request: whoami --local', async () => {
    const result = await svc(['whoami', '--local', '--jq', '.key_mode'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('test\n');
  });

  it('svc api: the body filtered', async () => {
    const ok = await svc(['api', '/v1/usage', '--jq', '.quota'], { service: usage() });
    expect(ok.stdout).toBe('10000\n');
  });

  it('svc api refuses --include with --jq: headers are not JSON', async () => {
    const result = await svc(['api', '/v1/usage', '--jq', '.', '--include'], {
      service: new FakeService(),
    });
    expect(result.code).toBe(2);
  });

  it('is refused by commands that run until stopped', async () => {
    const mock = await svc(['mock', '--port', '0', '--jq', '.url'], {});
    expect(mock.code).toBe(2);
    expect(mock.stderr).toContain('svc mock runs until stopped');
    const listen = await svc(['webhooks', 'listen', '--jq', '.'], {});
    expect(listen.code).toBe(2);
    expect(listen.stderr).toContain('svc webhooks listen runs until stopped');
  });
});

describe.each(MODES)(
  'svc api --jq on an error status, for $mode: never the unfiltered body on stdout',
  ({ tty }) => {
    const BODY = {
      error_type: 'INVALID_REQUEST_ERROR',
      error_code: 'REPORT_NOT_FOUND',
      error_message: 'No report.',
      request_id: 'req_1',
    };
    const PATH = '/v1/reports/rpt_0000000000000000';
    const missing = (
      reply: { status: number; body?: unknown; raw?: string; headers?: Record<string, string> } = {
        status: 404,
        body: BODY,
      },
    ) => new FakeService().expect('GET', PATH, reply);
    /** The summary a person reads, or the one JSON line a script does. */
    const summaryOf = (stderr: string) =>
      tty
        ? stderr.split('\n')[0]
        : (JSON.parse(stderr) as { error_message: string }).error_message.replace(/^/, 'error: ');

    it('the filter runs on the error body, as gh api runs it; the summary on stderr, the exit code of §4', async () => {
      const result = await svc(['api', PATH, '--jq', '.error_code'], { tty, service: missing() });
      expect(result.code).toBe(5);
      expect(result.stdout).toBe('REPORT_NOT_FOUND\n');
      expect(summaryOf(result.stderr)).toBe('error: HTTP 404: REPORT_NOT_FOUND: No report.');
      expect(result.stderr).not.toContain('req_1"');
    });

    it('a filter that selects nothing prints nothing; one jq cannot run on the body prints nothing either, and says why', async () => {
      const none = await svc(['api', PATH, '--jq', '.data[]?'], { tty, service: missing() });
      expect(none.code).toBe(5);
      expect(none.stdout).toBe('');
      const failing = await svc(['api', PATH, '--jq', '.data[]'], { tty, service: missing() });
      expect(failing.code).toBe(5);
      expect(failing.stdout).toBe('');
      expect(summaryOf(failing.stderr)).toBe('error: HTTP 404: REPORT_NOT_FOUND: No report.');
      expect(failing.stderr).toContain('--jq printed nothing: Cannot iterate over null');
    });

    it('an error body that is not JSON (a proxy page): nothing on stdout, the status on stderr', async () => {
      const page = {
        status: 502,
        raw: '<html>bad gateway</html>',
        headers: { 'content-type': 'text/html' },
      };
      const service = new FakeService()
        .expect('GET', PATH, page)
        .expect('GET', PATH, page)
        .expect('GET', PATH, page);
      const result = await svc(['api', PATH, '--jq', '.error_code'], { tty, service });
      expect(result.code).toBe(8);
      expect(result.stdout).toBe('');
      expect(summaryOf(result.stderr)).toBe('error: HTTP 502 Bad Gateway');
      expect(result.stderr).not.toContain('bad gateway');
    });
  },
);

describe('--json on a terminal', () => {
  it('is coloured as gh colours it, and the text is the same without the colours', async () => {
    const result = await svc(['usage', '--json'], { tty: true, service: usage() });
    expect(result.stdout).toContain('\u001b[1;34m"plan"\u001b[0m');
    expect(result.stdout).toContain('\u001b[32m"growth"\u001b[0m');
    expect(JSON.parse(plain(result.stdout))).toEqual(USAGE);
  });

  it('is never coloured in a pipe, nor with NO_COLOR', async () => {
    expect((await svc(['usage', '--json'], { service: usage() })).stdout).not.toMatch(/\u001b\[/);
    expect(
      (await svc(['usage', '--json'], { tty: true, env: { NO_COLOR: '1' }, service: usage() }))
        .stdout,
    ).not.toMatch(/\u001b\[/);
  });

  it('svc api colours a JSON body on a terminal', async () => {
    const result = await svc(['api', '/v1/usage'], { tty: true, service: usage() });
    expect(result.stdout).toContain('\u001b[1;34m"quota"\u001b[0m');
  });
});

describe('colorJson', () => {
  const strip = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

  it('adds colours and nothing else, whatever the JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 2);
        expect(strip(colorJson(text))).toBe(text);
      }),
    );
  });

  it('tells keys from string values, even a value that looks like a key', () => {
    const text = colorJson('{\n  "a": "b:",\n  "c": [null, true, 1]\n}');
    expect(text).toContain('\u001b[1;34m"a"\u001b[0m');
    expect(text).toContain('\u001b[32m"b:"\u001b[0m');
    expect(text).toContain('\u001b[36mnull\u001b[0m');
    expect(text).toContain('\u001b[33mtrue\u001b[0m');
  });
});
