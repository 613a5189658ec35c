// `svc sandbox create|fire|scenarios` in-process, as a person at a terminal and as a script: the
// request bodies, the checks made before any request (live keys, scenario names, --event and
// --error-code), and the scenario list kept in the reply cache for completion. What the real mock
// answers (scenario reports, error scenarios) stays with the e2e tests.
import { describe, expect, it } from 'vitest';

import { scenarioNames } from '../../src/commands/sandbox/scenario-names.js';
import {
  BASE_URL,
  FakeService,
  KEY,
  LIVE_KEY,
  MemoryCache,
  MODES,
  NOW,
  plain,
  svc,
  unwrapped,
} from '../support/in-process.js';
import { jsonLines } from '../support/json-lines.js';

const ID = 'rpt_0123456789abcdef';

const REPORT = {
  report_id: ID,
  status: 'complete',
  created_at: '2026-05-22T09:59:58Z',
  data_source: 'PARSED_STATEMENT',
  statement: {
    bank: 'NIC Asia Bank',
    bank_code: 'NIC_ASIA',
    currency: 'NPR',
    period: { from: '2025-11-10', to: '2026-05-09' },
    opening_balance: 150000,
    closing_balance: 212500.5,
    total_transactions: 2,
  },
  transactions: [{}, {}],
};

/** The scenario list in the shape the mock gives it (the service's shape is not documented). */
const SCENARIOS = {
  default: 'salaried',
  report_scenarios: [
    { scenario: 'salaried', description: 'steady salary, growing balance' },
    { scenario: 'thin_file', description: 'little history' },
  ],
  error_scenarios: [
    {
      scenario: 'error_unsupported_bank',
      error_code: 'UNSUPPORTED_BANK',
      description: 'fails: unsupported bank',
    },
  ],
};

const FIRED = { fired: 'report.ready', report_id: ID, environment: 'test' };

const create = (
  body: unknown,
  reply: { status?: number; body: unknown } = { status: 201, body: REPORT },
) =>
  new FakeService().expect(
    'POST',
    (r) => r.path === '/v1/sandbox/reports' && JSON.stringify(r.json) === JSON.stringify(body),
    reply,
  );

const fire = (body: unknown, reply: unknown = FIRED, id = ID) =>
  new FakeService().expect(
    'POST',
    (r) =>
      r.path === `/v1/sandbox/reports/${id}/fire_webhook` &&
      JSON.stringify(r.json) === JSON.stringify(body),
    { body: reply },
  );

const scenarios = (body: unknown = SCENARIOS) =>
  new FakeService().expect('GET', '/v1/sandbox/scenarios', { body });

describe('svc sandbox create', () => {
  it('as a script: posts {} for the default scenario and prints the report as fields', async () => {
    const result = await svc(['sandbox', 'create'], { service: create({}) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(new RegExp(`^report_id\\t${ID}$`, 'm'));
    expect(result.stdout).toMatch(/^status\tcomplete$/m);
    expect(result.stdout).toMatch(/^bank\tNIC Asia Bank \(NIC_ASIA\)$/m);
    expect(result.stdout).not.toMatch(/\u001b\[/);
    expect(result.requests[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('at a terminal: the report in a table under a title naming the scenario', async () => {
    const result = await svc(['sandbox', 'create', '--scenario', 'thin_file'], {
      tty: true,
      service: create({ scenario: 'thin_file' }),
    });
    expect(result.code, result.stderr).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).toContain('Sandbox report (scenario thin_file)');
    expect(screen).toContain(ID);
    expect(screen).toContain('NIC Asia Bank (NIC_ASIA)');
  });

  it.each([['thin_file'], ['high_risk'], ['remittance'], ['error_unsupported_bank']])(
    '--scenario %s is sent as {"scenario": …}',
    async (scenario) => {
      const result = await svc(['sandbox', 'create', '--scenario', scenario, '--json'], {
        service: create({ scenario }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(REPORT);
    },
  );

  it('--quiet prints the id alone, for $(...), in both modes', async () => {
    for (const tty of [false, true]) {
      const result = await svc(['sandbox', 'create', '--quiet'], { tty, service: create({}) });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${ID}\n`);
      expect(result.stderr).toBe('');
    }
  });

  it('--quiet with a reply that has no report id: exit 10', async () => {
    const result = await svc(['sandbox', 'create', '--quiet'], {
      service: create({}, { status: 201, body: { status: 'complete' } }),
    });
    expect(result.code).toBe(10);
    expect(result.stdout).toBe('');
  });

  it('an error scenario answers 422: exit 6, the error line and its request id; --json gives the envelope on stderr', async () => {
    const failure = {
      error_type: 'INVALID_REQUEST_ERROR',
      error_code: 'UNSUPPORTED_BANK',
      error_message: 'This bank is not supported yet.',
      display_message: null,
      request_id: 'req_0123456789abcdef0123456789abcdef',
    };
    const table = await svc(['sandbox', 'create', '--scenario', 'error_unsupported_bank'], {
      service: create({ scenario: 'error_unsupported_bank' }, { status: 422, body: failure }),
    });
    expect(table.code).toBe(6);
    expect(table.stdout).toBe('');
    expect(table.stderr).toMatch(/^error: UNSUPPORTED_BANK: This bank is not supported yet\.$/m);
    expect(table.stderr).toMatch(/^Request ID: req_0123456789abcdef0123456789abcdef$/m);

    const json = await svc(
      ['sandbox', 'create', '--scenario', 'error_unsupported_bank', '--json'],
      { service: create({ scenario: 'error_unsupported_bank' }, { status: 422, body: failure }) },
    );
    expect(json.code).toBe(6);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toEqual(failure);
  });

  it("an unknown scenario is the service's to refuse (exit 6)", async () => {
    const unknown = {
      error_type: 'INVALID_REQUEST_ERROR',
      error_code: 'INVALID_REQUEST',
      error_message: "Unknown scenario 'millionaire'; the scenarios are salaried, thin_file.",
    };
    const result = await svc(['sandbox', 'create', '--scenario', 'millionaire'], {
      service: create({ scenario: 'millionaire' }, { status: 400, body: unknown }),
    });
    expect(result.code).toBe(6);
    expect(unwrapped(result.stderr)).toMatch(
      /^error: INVALID_REQUEST: Unknown scenario 'millionaire'; the scenarios are salaried,/,
    );
  });

  it.each([['Salaried'], ['thin-file'], [''], ['9lives'], ['a'.repeat(65)]])(
    'refuses the scenario name %j before any request (exit 2)',
    async (name) => {
      for (const tty of [false, true]) {
        const result = await svc(['sandbox', 'create', '--scenario', name], { tty });
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/^error: --scenario takes a scenario name/);
        expect(result.stderr).toContain('See the names with `svc sandbox scenarios`.');
      }
    },
  );

  it.each([['--json'], ['-o', 'csv'], ['-o', 'ndjson']])(
    '--quiet with %s is a usage error, before any request',
    async (...format) => {
      const result = await svc(['sandbox', 'create', '--quiet', ...format]);
      expect(result.code).toBe(2);
      // With a machine format, a usage error is one JSON line on a script's stderr too.
      const message = JSON.parse(result.stderr).error_message;
      expect(message).toMatch(
        /^(error: )?--quiet prints only the report id; it conflicts with --output/,
      );
    },
  );

  it('a key without the scope to create: exit 4', async () => {
    const denied = {
      error_type: 'PERMISSION_ERROR',
      error_code: 'INSUFFICIENT_SCOPE',
      error_message: 'This key is read-only.',
    };
    const result = await svc(['sandbox', 'create'], {
      service: create({}, { status: 403, body: denied }),
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: INSUFFICIENT_SCOPE: /);
  });
});

describe('live keys', () => {
  const LIVE_MESSAGE =
    /^error: the sandbox needs a test key \(svc_sk_test_\.\.\.\); the key in force is a live key \(svc_sk_live_…eeff\)$/m;

  it.each([
    [['create']],
    [['scenarios']],
    [['fire', ID]],
    [['create', '--scenario', 'thin_file', '--quiet']],
    [['fire', ID, '--event', 'report.failed']],
  ])('sandbox %j with a live key: exit 4 before any request, in both modes', async (args) => {
    for (const tty of [false, true]) {
      // The fake service expects no request: one sent would fail the test.
      const result = await svc(['sandbox', ...args], { tty, env: { SVC_API_KEY: LIVE_KEY } });
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toMatch(LIVE_MESSAGE);
      expect(result.stderr).toContain(
        'Set SVC_API_KEY to a test key, or use a profile that has one',
      );
      expect(result.stderr).not.toContain(LIVE_KEY);
    }
  });

  it('a live key from --api-key is refused too, whatever the environment holds', async () => {
    const result = await svc(['sandbox', 'create', '--api-key', LIVE_KEY], {
      env: { SVC_API_KEY: KEY },
    });
    expect(result.code).toBe(4);
    expect(unwrapped(result.stderr)).toMatch(LIVE_MESSAGE);
  });

  it('the unbranded live form sk_live_… is a live key too', async () => {
    const result = await svc(['sandbox', 'fire', ID], {
      env: { SVC_API_KEY: 'sk_live_00112233445566778899aabbccddeeff' },
    });
    expect(result.code).toBe(4);
    expect(unwrapped(result.stderr)).toMatch(/the key in force is a live key \(sk_live_…eeff\)/);
  });

  it('the unbranded test form sk_test_… is a test key', async () => {
    const result = await svc(['sandbox', 'create', '--quiet'], {
      env: { SVC_API_KEY: 'sk_test_00112233445566778899aabbccddeeff' },
      service: create({}),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${ID}\n`);
  });
});

describe('svc sandbox fire', () => {
  it('leaves absent fields out: the body is {} and the reply is shown as fields', async () => {
    const result = await svc(['sandbox', 'fire', ID], { service: fire({}) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      `FIELD\tVALUE\nfired\treport.ready\nreport_id\t${ID}\nenvironment\ttest\n`,
    );
    expect(result.stderr).toBe('');
  });

  it('sends --event and --error-code; --json prints the reply', async () => {
    const reply = { fired: 'report.failed', report_id: ID, environment: 'test' };
    const result = await svc(
      [
        'sandbox',
        'fire',
        ID,
        '--event',
        'report.failed',
        '--error-code',
        'TAMPER_DETECTED',
        '--json',
      ],
      {
        service: fire({ event: 'report.failed', error_code: 'TAMPER_DETECTED' }, reply),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(reply);
  });

  it("sends --event alone, and --error-code alone (the event is then the service's choice)", async () => {
    const a = await svc(['sandbox', 'fire', ID, '--event', 'report.ready', '--json'], {
      service: fire({ event: 'report.ready' }),
    });
    expect(a.code, a.stderr).toBe(0);
    const b = await svc(['sandbox', 'fire', ID, '--error-code', 'TAMPER_DETECTED', '--json'], {
      service: fire({ error_code: 'TAMPER_DETECTED' }),
    });
    expect(b.code, b.stderr).toBe(0);
  });

  it('at a terminal: the reply in a table, and fields the service adds', async () => {
    const result = await svc(['sandbox', 'fire', ID], {
      tty: true,
      service: fire({}, { ...FIRED, delivery_count: 2 }),
    });
    expect(result.code).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).toMatch(/Fired\s.*report\.ready/);
    expect(screen).toMatch(/Environment\s.*test/);
    expect(screen).toMatch(/Delivery count\s.*2/);
  });

  describe('delivered_to (svc mock adds it; the service does not send it)', () => {
    it('an empty list: a warning on stderr, the reply still printed, exit 0', async () => {
      for (const args of [[], ['--json']]) {
        const result = await svc(['sandbox', 'fire', ID, ...args], {
          service: fire({}, { ...FIRED, delivered_to: [] }),
        });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toBe(
          'warning: the service delivered this event to no endpoint: start `svc webhooks listen` with the same base URL first (it registers itself with svc mock)\n',
        );
        if (args.length) expect(JSON.parse(result.stdout)).toEqual({ ...FIRED, delivered_to: [] });
        else
          expect(result.stdout).toBe(
            `FIELD\tVALUE\nfired\treport.ready\nreport_id\t${ID}\nenvironment\ttest\ndelivered_to\tno endpoint\n`,
          );
      }
    });

    it('endpoints listed: no warning; a table shows where it went', async () => {
      const urls = ['http://127.0.0.1:8788/', 'http://127.0.0.1:9000/hooks'];
      const result = await svc(['sandbox', 'fire', ID], {
        service: fire({}, { ...FIRED, delivered_to: urls }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(
        /^delivered_to\thttp:\/\/127\.0\.0\.1:8788\/, http:\/\/127\.0\.0\.1:9000\/hooks$/m,
      );
      const screen = plain(
        (
          await svc(['sandbox', 'fire', ID], {
            tty: true,
            service: fire({}, { ...FIRED, delivered_to: [] }),
          })
        ).stdout,
      );
      expect(screen).toMatch(/Delivered to\s.*no endpoint/);
    });

    it.each([[{}], [{ delivered_to: null }], [{ delivered_to: 'nowhere' }], [{ delivered_to: 0 }]])(
      'absent or not a list (%j): no warning',
      async (extra) => {
        const result = await svc(['sandbox', 'fire', ID], {
          service: fire({}, { ...FIRED, ...extra }),
        });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toBe('');
      },
    );
  });

  it('URL-encodes the id into the path', async () => {
    const result = await svc(['sandbox', 'fire', 'rpt_a+b', '--json'], {
      service: fire({}, FIRED, 'rpt_a%2Bb'),
    });
    expect(result.code, result.stderr).toBe(0);
  });

  it("another organisation's report is not found (exit 5)", async () => {
    const missing = {
      error_type: 'NOT_FOUND_ERROR',
      error_code: 'REPORT_NOT_FOUND',
      error_message: 'No such report.',
    };
    const service = new FakeService().expect('POST', `/v1/sandbox/reports/${ID}/fire_webhook`, {
      status: 404,
      body: missing,
    });
    const result = await svc(['sandbox', 'fire', ID], { service });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^error: REPORT_NOT_FOUND: /);
  });

  it.each([
    [['rpt_x', '--event', 'report.done'], /--event/],
    [
      ['rpt_x', '--error-code', 'tamper'],
      /^error: --error-code takes an error code such as TAMPER_DETECTED, not "tamper"$/m,
    ],
    [
      ['rpt_x', '--event', 'report.ready', '--error-code', 'TAMPER_DETECTED'],
      /^error: --error-code goes with --event report.failed, not report.ready$/m,
    ],
    [['a/b'], /^error: the report id/],
    [['..'], /^error: the report id/],
    [[''], /^error: the report id is empty/],
  ])('refuses %j before any request (exit 2)', async (args, message) => {
    for (const tty of [false, true]) {
      const result = await svc(['sandbox', 'fire', ...args], { tty });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
  });
});

describe('svc sandbox fire -o csv', () => {
  it.each(MODES)(
    'one record, what the reply nests in dotted columns, for $mode',
    async ({ tty }) => {
      const result = await svc(['sandbox', 'fire', ID, '-o', 'csv'], {
        tty,
        service: fire({}, { ...FIRED, delivery: { endpoints: 2, events: ['report.ready'] } }),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        `fired,report_id,environment,delivery.endpoints,delivery.events\r\nreport.ready,${ID},test,2,report.ready\r\n`,
      );
    },
  );
});

describe('svc sandbox scenarios', () => {
  it('as a script: every scenario one line of one table, its list named first; the other fields on stderr', async () => {
    const result = await svc(['sandbox', 'scenarios'], {
      cache: new MemoryCache(),
      service: scenarios(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        'LIST\tSCENARIO\tDESCRIPTION\tERROR CODE',
        'report_scenarios\tsalaried\tsteady salary, growing balance\t',
        'report_scenarios\tthin_file\tlittle history\t',
        'error_scenarios\terror_unsupported_bank\tfails: unsupported bank\tUNSUPPORTED_BANK',
      ].join('\n') + '\n',
    );
    expect(result.stderr).toBe('default: salaried\n');
    expect(result.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/sandbox/scenarios',
    ]);
  });

  it('at a terminal: the default, then a table for each list of scenarios', async () => {
    const result = await svc(['sandbox', 'scenarios'], {
      tty: true,
      cache: new MemoryCache(),
      service: scenarios(),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const screen = plain(result.stdout);
    expect(screen).toMatch(/^Default +salaried\n\nReport scenarios\n┌/);
    expect(screen).toMatch(/\n\nError scenarios\n┌/);
    for (const name of ['salaried', 'thin_file', 'error_unsupported_bank', 'UNSUPPORTED_BANK'])
      expect(screen).toContain(name);
  });

  it('--json gives the reply as received', async () => {
    const result = await svc(['sandbox', 'scenarios', '--json'], {
      cache: new MemoryCache(),
      service: scenarios(),
    });
    expect(result.stdout).toBe(JSON.stringify(SCENARIOS, null, 2) + '\n');
  });

  it.each(MODES)(
    '-o csv: one row per scenario, its list (report or error scenarios) first, for $mode',
    async ({ tty }) => {
      const result = await svc(['sandbox', 'scenarios', '-o', 'csv'], {
        tty,
        cache: new MemoryCache(),
        service: scenarios(),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.split('\r\n')).toEqual([
        'list,default,scenario,description,error_code',
        'report_scenarios,salaried,salaried,"steady salary, growing balance",',
        'report_scenarios,salaried,thin_file,little history,',
        'error_scenarios,salaried,error_unsupported_bank,fails: unsupported bank,UNSUPPORTED_BANK',
        '',
      ]);
    },
  );

  it.each(MODES)('-o ndjson: the same records, one a line, for $mode', async ({ tty }) => {
    const result = await svc(['sandbox', 'scenarios', '-o', 'ndjson'], {
      tty,
      cache: new MemoryCache(),
      service: scenarios(),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(jsonLines(result.stdout)).toEqual([
      ...SCENARIOS.report_scenarios.map((s) => ({
        list: 'report_scenarios',
        default: 'salaried',
        ...s,
      })),
      ...SCENARIOS.error_scenarios.map((s) => ({
        list: 'error_scenarios',
        default: 'salaried',
        ...s,
      })),
    ]);
  });

  it.each(MODES)(
    '-o ndjson of a reply that is a top-level list: its items, for $mode',
    async ({ tty }) => {
      const result = await svc(['sandbox', 'scenarios', '-o', 'ndjson'], {
        tty,
        cache: new MemoryCache(),
        service: scenarios(SCENARIOS.report_scenarios),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        SCENARIOS.report_scenarios.map((s) => JSON.stringify(s)).join('\n') + '\n',
      );
    },
  );

  it('an empty reply says so, in both modes', async () => {
    for (const tty of [false, true]) {
      const result = await svc(['sandbox', 'scenarios'], {
        tty,
        cache: new MemoryCache(),
        service: scenarios({}),
      });
      expect(result.code).toBe(0);
      expect(plain(result.stdout)).toBe('The sandbox offers no scenarios.\n');
    }
  });

  it.each([false, true])(
    'keeps the reply in the reply cache, where completion reads the names (tty: %s)',
    async (tty) => {
      const cache = new MemoryCache();
      const result = await svc(['sandbox', 'scenarios'], { tty, cache, service: scenarios() });
      expect(result.code, result.stderr).toBe(0);
      const url = `${BASE_URL}/v1/sandbox/scenarios`;
      expect([...cache.entries.keys()]).toEqual([url]);
      const entry = cache.entries.get(url)!;
      expect(entry).toEqual({
        url,
        fetched_at: new Date(NOW).toISOString(),
        as_of: null,
        raw: JSON.stringify(SCENARIOS),
      });
      expect(scenarioNames(JSON.parse(entry.raw)).map((s) => s.value)).toEqual([
        'salaried',
        'thin_file',
        'error_unsupported_bank',
      ]);
    },
  );

  it('keeps the cache entry of the profile in force, under its base URL', async () => {
    const cache = new MemoryCache();
    const result = await svc(['sandbox', 'scenarios', '--base-url', 'http://127.0.0.1:4010'], {
      cache,
      service: new FakeService().expect(
        'GET',
        (r) => r.url.toString() === 'http://127.0.0.1:4010/v1/sandbox/scenarios',
        { body: SCENARIOS },
      ),
    });
    expect(result.code, result.stderr).toBe(0);
    expect([...cache.entries.keys()]).toEqual(['http://127.0.0.1:4010/v1/sandbox/scenarios']);
  });

  it('never keeps a reply that holds the key', async () => {
    const cache = new MemoryCache();
    const leaky = { ...SCENARIOS, echo: KEY };
    const result = await svc(['sandbox', 'scenarios', '--json'], {
      cache,
      service: scenarios(leaky),
    });
    expect(result.code).toBe(0);
    expect(cache.entries.size).toBe(0);
    expect(result.stdout).not.toContain(KEY);
  });

  it('an error reply is not kept', async () => {
    const cache = new MemoryCache();
    const service = new FakeService().expect('GET', '/v1/sandbox/scenarios', {
      status: 500,
      body: { error_type: 'API_ERROR', error_code: 'API_ERROR', error_message: 'boom' },
    });
    const result = await svc(['sandbox', 'scenarios', '--retries', '0'], { cache, service });
    expect(result.code).toBe(8);
    expect(cache.entries.size).toBe(0);
  });
});
