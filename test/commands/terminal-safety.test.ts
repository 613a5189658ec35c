// What a hostile service sends cannot reach a terminal as control or bidirectional characters, in
// any output: tables, --json, -o ndjson and -o csv (whole replies and merchants' streamed ones),
// --debug lines, and every line a command makes of a peer's field outside a table, svc mock's
// answers to `webhooks listen` included. In a pipe the machine formats stay exactly as received.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { signatureHeader } from '../../src/webhooks/signature.js';
import { type FakeReply, FakeService, scratchDir, svc } from '../support/in-process.js';
import { freePort, post } from '../support/peers.js';

/** Escape sequences (OSC title, clear screen), a C1 CSI, DEL and a right-to-left override. */
const HOSTILE = 'EVIL\u001b]0;title\u0007\u001b[2J\u009b31m\u007f\u202eKNAB';
/** What a terminal may show of it. */
const SHOWN = 'EVIL]0;title[2J31mKNAB';
/** Every character that must not reach a terminal raw. */
const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const LIST = {
  data: [
    { report_id: 'rpt_1', status: HOSTILE, bank_code: 'NABIL', created_at: '2026-05-20T08:30:00Z' },
  ],
};
const reports = () => new FakeService().expect('GET', '/v1/reports', { body: LIST });
/** Text of a terminal's output without svc's own colours, and CSV's line ends as one line break. */
const withoutColour = (text: string) =>
  text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r\n/g, '\n');

describe('on a terminal', () => {
  it.each(['table', 'csv'])('-o %s: the characters are dropped', async (format) => {
    const result = await svc(['reports', 'list', '-o', format], { tty: true, service: reports() });
    expect(result.code, result.stderr).toBe(0);
    expect(withoutColour(result.stdout)).not.toMatch(UNSAFE);
    expect(result.stdout).toContain(SHOWN);
  });

  it.each([['--json'], ['-o', 'ndjson']])(
    '%s: the characters are written as \\u escapes, so the JSON means the same',
    async (...flags) => {
      const result = await svc(['reports', 'list', ...flags, '--no-color'], {
        tty: true,
        service: reports(),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(UNSAFE);
      expect(result.stdout).toContain('\\u009b31m\\u007f\\u202eKNAB');
      const value = JSON.parse(
        flags[0] === '--json' ? result.stdout : result.stdout.split('\n')[0]!,
      );
      expect(value.data?.[0]?.status ?? value.status).toBe(HOSTILE);
    },
  );

  it('merchants resolve: streamed CSV, NDJSON and JSON too', async () => {
    const result = {
      input: '9000000000000001',
      type: 'terminal',
      matched: true,
      merchant: HOSTILE,
      terminal: '9000000000000001',
    };
    for (const flags of [
      ['-o', 'csv'],
      ['-o', 'ndjson'],
      ['--json', '--no-color'],
    ]) {
      const service = new FakeService().expect('POST', '/v1/merchants/resolve', {
        body: { data: { count: 1, matched: 1, results: [result] }, meta: {} },
      });
      const run = await svc(['merchants', 'resolve', '9000000000000001', ...flags], {
        tty: true,
        service,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(withoutColour(run.stdout), flags.join(' ')).not.toMatch(UNSAFE);
      expect(run.stdout).toMatch(/EVIL/);
    }
  });

  it('--debug lines drop them from what the server sent', async () => {
    const service = new FakeService().expect('GET', '/v1/usage', {
      body: { plan: 'x' },
      headers: { 'x-request-id': 'req_\u009b2J\u202eX' },
    });
    const result = await svc(['usage', '--debug'], { tty: true, service });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('req_2JX');
    expect(result.stderr).not.toMatch(/[\u009b\u202e]/);
  });
});

describe('in a pipe', () => {
  it.each([['--json'], ['-o', 'ndjson']])('%s: the reply as received', async (...flags) => {
    const result = await svc(['reports', 'list', ...flags], { service: reports() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(JSON.stringify(HOSTILE));
  });

  it('tab-separated tables still drop them', async () => {
    const result = await svc(['reports', 'list'], { service: reports() });
    expect(result.stdout).not.toMatch(UNSAFE);
    expect(result.stdout).toContain(SHOWN);
  });
});

// Every field a command prints from a peer outside a table (a success line, a note, a hint, an
// error, a spinner, the lines of `webhooks listen`), fed escape sequences: a clipboard write
// (OSC 52), a title (OSC 0), a cleared screen, a C1 CSI and a right-to-left override.
const OSC52 = '\u001b]52;c;cm0gLXJmIH4=\u0007';
const PEER = `rpt_${OSC52}\u001b]0;title\u0007\u001b[2J\u009b31m\u202ex`;
/** What svc itself draws on a terminal's stderr: colours, and a spinner's cursor moves. */
const withoutOwnSequences = (text: string) =>
  withoutColour(text).replace(/\u001b\[(\?25[lh]|[012]?K|\d*G|\d*A)/g, '');

function expectInert(result: { stdout: string; stderr: string }, what: string): void {
  expect(withoutOwnSequences(result.stdout), `${what}: stdout`).not.toMatch(UNSAFE);
  expect(withoutOwnSequences(result.stderr), `${what}: stderr`).not.toMatch(UNSAFE);
}

describe('on a terminal, every field a command prints from the service outside a table', () => {
  let files = 0;
  /** A statement file of the test's own. */
  function statement(): string {
    const dir = join(scratchDir(), 'terminal-safety', String(++files));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 's.pdf'), Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1'));
    return join(dir, 's.pdf');
  }
  const pollPath = `/v1/reports/${encodeURIComponent(PEER)}`;
  const processing = { body: { report_id: PEER, status: 'processing' } };
  const error = {
    error_type: 'INVALID_REQUEST_ERROR',
    error_code: PEER,
    error_message: PEER,
    suggested_action: PEER,
    documentation_url: PEER,
    request_id: PEER,
  };

  const runs: {
    name: string;
    argv: string[] | (() => string[]);
    service: () => FakeService;
    exit: number;
    env?: Record<string, string | undefined>;
    stdin?: string;
  }[] = [
    {
      name: 'sandbox create --quiet: the report id',
      argv: ['sandbox', 'create', '--quiet'],
      service: () =>
        new FakeService().expect('POST', '/v1/sandbox/reports', {
          status: 201,
          body: { report_id: PEER },
        }),
      exit: 0,
    },
    {
      name: 'sandbox fire: the report id and the endpoints it delivered to',
      argv: ['sandbox', 'fire', 'rpt_1'],
      service: () =>
        new FakeService().expect('POST', '/v1/sandbox/reports/rpt_1/fire_webhook', {
          body: { fired: PEER, report_id: PEER, delivered_to: [PEER] },
        }),
      exit: 0,
    },
    {
      name: 'consents revoke: what the reply says',
      argv: ['consents', 'revoke', 'cns_1'],
      service: () =>
        new FakeService().expect('POST', '/v1/consents/cns_1/revoke', {
          body: { id: PEER, status: PEER },
        }),
      exit: 0,
    },
    {
      name: 'decisions record: what the reply says',
      argv: ['decisions', 'record', '--client-reference-id', 'loan-1', '--decision', 'approved'],
      service: () =>
        new FakeService().expect('POST', '/v1/decisions', {
          body: { id: PEER, client_reference_id: PEER, decision: PEER },
        }),
      exit: 0,
    },
    {
      name: 'connect --open: a Connect URL it will not open',
      argv: [
        'connect',
        '--scopes',
        'identity',
        '--redirect-uri',
        'https://app.example.com/done',
        '--open',
      ],
      service: () =>
        new FakeService().expect('POST', '/v1/connect/request', {
          body: { request_token: PEER, connect_url: `javascript:${PEER}` },
        }),
      exit: 10,
    },
    {
      name: 'parse --wait: the report id in "being parsed", the spinner, "still processing" and its hint',
      argv: () => ['parse', statement(), '--wait', '--wait-timeout', '2'],
      service: () =>
        new FakeService()
          .expect('POST', '/v1/parse', { status: 202, body: { poll_url: pollPath } })
          .expect('GET', pollPath, processing)
          .expect('GET', pollPath, processing)
          .expect('GET', pollPath, processing),
      exit: 9,
    },
    {
      name: 'consents create: the consent id in its notes',
      argv: ['consents', 'create', 'rpt_1', '--scopes', 'identity'],
      service: () =>
        new FakeService().expect('POST', '/v1/consents', {
          body: { id: PEER, token: 'ctok_9f8e7d6c5b4a39281706', scopes: ['identity'] },
        }),
      exit: 0,
    },
    {
      name: 'connect exchange: the grant id in its notes',
      argv: ['connect', 'exchange', 'cpt_9f8e7d6c5b4a39281706'],
      service: () =>
        new FakeService().expect('POST', '/v1/connect/exchange', {
          body: { access_token: 'sat_0f1e2d3c4b5a69788796', grant_id: PEER, scopes: ['identity'] },
        }),
      exit: 0,
    },
    {
      name: 'login: the plan',
      argv: ['login', '--base-url', 'https://svc.test', '--with-key'],
      service: () => new FakeService().expect('GET', '/v1/usage', { body: { plan: PEER } }),
      exit: 0,
      env: {
        SVC_BASE_URL: undefined,
        SVC_API_KEY: undefined,
        SVC_CONFIG_DIR: join(scratchDir(), 'terminal-safety-login'),
      },
      stdin: 'svc_sk_test_00112233445566778899aabbccddeeff',
    },
    {
      name: 'an API error: every field of the envelope',
      argv: ['reports', 'get', 'rpt_1'],
      service: () =>
        new FakeService().expect('GET', '/v1/reports/rpt_1', { status: 400, body: error }),
      exit: 6,
    },
    {
      name: 'a used-up quota: the time it resets at',
      argv: ['data', 'latest', 'cpi', '--retries', '0'],
      service: () =>
        new FakeService()
          .expect('GET', '/v1/data/cbank/cpi/latest', {
            status: 429,
            body: {
              error_type: 'RATE_LIMIT_ERROR',
              error_code: 'QUOTA_EXCEEDED',
              error_message: 'Used up.',
            },
          })
          .expect('GET', '/v1/usage', { body: { plan: 'growth', resets_at: PEER } }),
      exit: 7,
    },
    {
      name: 'data latest -o csv: the attribution beside the CSV',
      argv: ['data', 'latest', 'cpi', '-o', 'csv'],
      service: () =>
        new FakeService().expect('GET', '/v1/data/cbank/cpi/latest', {
          body: {
            data: { month: '2026-02', total: 1 },
            meta: { attribution: PEER, source: PEER, as_of: PEER },
          },
        }),
      exit: 0,
    },
  ];

  it.each(runs)('$name', async ({ argv, service, exit, env, stdin }) => {
    const args = typeof argv === 'function' ? argv() : argv;
    const result = await svc(args, { tty: true, service: service(), env, stdin, columns: 400 });
    expect(result.code, result.stderr).toBe(exit);
    expectInert(result, args.join(' '));
    // The text is still shown, without what would act on the terminal.
    expect(result.stdout + result.stderr).toContain('rpt_');
  });
});

/**
 * `webhooks listen` against a fake svc mock on this machine (its admin routes answered at the
 * transport).
 */
describe('on a terminal, what webhooks listen prints of svc mock', () => {
  const SECRET = `whsec_${'5a'.repeat(32)}`;
  const MARK = { 'x-svc-mock': '1' };
  const event = JSON.stringify({
    event: 'report.ready',
    report_id: 'rpt_e8699f830adc84b8',
    timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });

  /**
   * Runs listen until one event, signed with `secret`, came (or until it fails); svc mock answers
   * the registration with `reply`.
   */
  async function listenWith(
    reply: FakeReply,
    options: { secret?: string; unregisters?: string } = {},
  ) {
    const port = await freePort();
    const service = new FakeService().expect('POST', '/_mock/webhooks/endpoints', reply);
    if (options.unregisters !== undefined)
      service.expect(
        'DELETE',
        `/_mock/webhooks/endpoints/${encodeURIComponent(options.unregisters)}`,
        { body: { deleted: true }, headers: MARK },
      );
    const env = {
      SVC_BASE_URL: `http://127.0.0.1:${await freePort()}`,
      SVC_WEBHOOK_SECRET: options.secret,
    };
    const signing = options.secret ?? (reply.body as { secret?: string } | undefined)?.secret;
    // Once it says it listens (registered, or not), one signed event ends the run.
    let delivered: Promise<number> | undefined;
    const onStderr = (text: string) => {
      if (text.includes('Listening for webhook deliveries'))
        delivered ??= post(`http://127.0.0.1:${port}/hooks`, event, {
          'X-Svc-Signature': signatureHeader(signing!, event),
        });
    };
    const result = await svc(['webhooks', 'listen', '--port', String(port), '--exit-after', '1'], {
      tty: true,
      realWaits: true,
      columns: 400,
      env,
      service,
      onStderr,
    });
    await delivered;
    return result;
  }

  it('the id it registered as', async () => {
    const result = await listenWith(
      { status: 201, body: { id: PEER, url: 'x', secret: SECRET }, headers: MARK },
      { unregisters: PEER },
    );
    expect(result.code, result.stderr).toBe(0);
    expectInert(result, 'registered');
    expect(result.stderr).toMatch(/Registered with svc mock at \S+ as rpt_/);
  });

  it('its refusal, as a warning when a secret of the user lets it listen all the same', async () => {
    const result = await listenWith(
      { status: 403, body: { error_code: PEER, error_message: PEER }, headers: MARK },
      { secret: SECRET },
    );
    expect(result.code, result.stderr).toBe(0);
    expectInert(result, 'refused, warned');
    expect(result.stderr).toMatch(
      /^warning: not registered with svc mock: svc mock at \S+ refused to register this listener \(403 rpt_.*\): rpt_/m,
    );
  });

  it('its refusal, as the error when no secret of the user does', async () => {
    const result = await listenWith({
      status: 403,
      body: { error_code: PEER, error_message: PEER },
      headers: MARK,
    });
    expect(result.code).toBe(4);
    expectInert(result, 'refused');
    expect(result.stderr).toMatch(
      /^error: svc mock at \S+ refused to register this listener \(403 rpt_.*\): rpt_/,
    );
  });

  it.each([
    [
      'a secret of 60,000 characters',
      `whsec_${'a'.repeat(60_000)}`,
      'a signing secret of 60006 characters',
    ],
    [
      'a secret that ends in ESC[2J',
      `whsec_${'5a'.repeat(8)}\u001b[2J`,
      'a signing secret with white space or control characters',
    ],
    ['an id of 1,000 characters', SECRET, 'an endpoint id of 1000 characters', 'x'.repeat(1000)],
  ])(
    'a registration with %s is an unexpected reply (exit 10), said in one line',
    async (_, secret, why, id = 'we_0123456789abcdef') => {
      const result = await listenWith({
        status: 201,
        body: { id, url: 'x', secret },
        headers: MARK,
      });
      expect(result.code, result.stderr).toBe(10);
      expectInert(result, why);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(`^error: svc mock at \\S+ answered the registration with ${why}\\n$`),
      );
    },
  );
});
