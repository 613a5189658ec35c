// `svc statements list` in-process, as a person at a terminal and as a script: the request, --json
// as received, the tables, ndjson and CSV of the `statements` list, the --status check made before
// any request, the exit code of each API failure, and replies of another shape.
import { describe, expect, it } from 'vitest';

import { envelope } from '../support/errors.js';
import { documented } from '../support/fixtures.js';
import {
  ANSI,
  asErrorLine,
  BOX,
  expectFailure,
  type FakeReply,
  FakeService,
  KEY,
  MODES,
  plain,
  svc,
  unwrapped,
} from '../support/in-process.js';

const ERROR_FLAT = documented('error-flat');
const ERROR_NESTED = documented('error-nested');

const HASH_1 = 'f394f8995128a2051f9f11e2ebcd4df7fcbcbcdfb1e1373b4888ca3846e4bc8f';
const HASH_2 = '0028e9c0083a1427dce121e2ce34d722dfababda1bd5a77f6f22f2a3f6a086e7';

/**
 * The spec's reply: `statements` = [{content_hash, verify_url, status}]; an id has no documented
 * name (the mock's `statement_id` is read, as is `id`), and `issued_at` is a field no document
 * names.
 */
const STATEMENTS = {
  statements: [
    {
      statement_id: 'stmt_5c9cff02caa141a3',
      status: 'issued',
      content_hash: HASH_1,
      verify_url: 'https://svc.test/verify/stmt_5c9cff02caa141a3',
    },
    {
      statement_id: 'stmt_67025b0fea9c05ca',
      status: 'revoked',
      content_hash: HASH_2,
      verify_url: 'https://svc.test/verify/stmt_67025b0fea9c05ca',
    },
  ],
};

const answering = (path: string, reply: FakeReply) => new FakeService().expect('GET', path, reply);
const statements = (body: unknown = STATEMENTS, path = '/v1/statements') =>
  answering(path, { body });

describe('svc statements list: the request', () => {
  it('sends GET /v1/statements with the key, and no query without --status', async () => {
    const result = await svc(['statements', 'list', '--json'], { service: statements() });
    expect(result.code).toBe(0);
    const [request] = result.requests;
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers.accept).toBe('application/json');
    expect(request!.body).toBeUndefined();
    expect(request!.headers).not.toHaveProperty('idempotency-key');
  });

  it.each(['issued', 'revoked'])('sends --status %s as status=%s', async (status) => {
    const result = await svc(['statements', 'list', '--status', status], {
      service: statements({ statements: [] }, `/v1/statements?status=${status}`),
    });
    expect(result.code).toBe(0);
  });

  it.each(
    ['valid', 'ISSUED', '', 'issued,revoked'].flatMap((status) =>
      MODES.map(({ mode, tty }) => ({ status, mode, tty })),
    ),
  )('refuses --status $status before any request (exit 2), for $mode', async ({ status, tty }) => {
    const result = await svc(['statements', 'list', `--status=${status}`], { tty });
    expectFailure(result, 2, /^error: .*status/);
    expect(result.requests).toEqual([]);
  });
});

describe('svc statements list: output', () => {
  it('gives a script one header line, then one tab-separated line per statement, with the whole hash', async () => {
    const result = await svc(['statements', 'list'], { service: statements() });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'STATEMENT\tSTATUS\tCONTENT HASH\tVERIFY AT',
        `stmt_5c9cff02caa141a3\tissued\t${HASH_1}\thttps://svc.test/verify/stmt_5c9cff02caa141a3`,
        `stmt_67025b0fea9c05ca\trevoked\t${HASH_2}\thttps://svc.test/verify/stmt_67025b0fea9c05ca`,
      ].join('\n') + '\n',
    );
    expect(result.stdout).not.toMatch(ANSI);
  });

  it('shows a person a boxed table with coloured states, the id and the address; -o wide the whole hash too', async () => {
    const result = await svc(['statements', 'list'], {
      tty: true,
      columns: 200,
      service: statements(),
    });
    expect(result.code).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).toMatch(BOX);
    expect(screen).toMatch(/│ STATEMENT +│ STATUS +│ VERIFY AT +│/);
    expect(screen).toContain(
      `│ stmt_5c9cff02caa141a3 │ issued  │ https://svc.test/verify/stmt_5c9cff02caa141a3 │`,
    );
    expect(result.stdout).toContain('\u001b[32missued\u001b[39m');
    expect(result.stdout).toContain('\u001b[31mrevoked\u001b[39m');
    const wide = await svc(['statements', 'list', '-o', 'wide'], {
      tty: true,
      columns: 200,
      service: statements(),
    });
    expect(plain(wide.stdout)).toMatch(/│ STATEMENT +│ STATUS +│ CONTENT HASH +│ VERIFY AT +│/);
    expect(plain(wide.stdout)).toContain(
      `│ stmt_5c9cff02caa141a3 │ issued  │ ${HASH_1} │ https://svc.test/verify/stmt_5c9cff02caa141a3 │`,
    );
  });

  it('on a narrow terminal the id gives way; the verification address stays whole', async () => {
    for (const [columns, shown] of [
      [80, /^│ STATUS +│ VERIFY AT +│$/m],
      [60, /^│ STATUS +│ VERIFY AT +│$/m],
    ] as const) {
      const result = await svc(['statements', 'list'], {
        tty: true,
        columns,
        service: statements(),
      });
      expect(result.code).toBe(0);
      const screen = plain(result.stdout);
      expect(screen).toMatch(shown);
      expect(screen).toContain('│ https://svc.test/verify/stmt_5c9cff02caa141a3 │');
      expect(screen.split('\n').every((line) => [...line].length <= columns)).toBe(true);
    }
  });

  it.each(MODES)(
    'reads `id` as the statement id, leaves the column out when no statement has one, and shows other fields, for $mode',
    async ({ tty }) => {
      const body = {
        statements: [
          {
            id: 'stmt_a',
            status: 'issued',
            content_hash: 'abc',
            verify_url: 'https://v.test/a',
            issued_at: '2026-02-10T10:30:00Z',
          },
          { status: 'issued', content_hash: 'def', verify_url: 'https://v.test/b' },
        ],
        has_more: false,
      };
      const withIds = await svc(['statements', 'list'], { tty, service: statements(body) });
      expect(withIds.code).toBe(0);
      if (tty) {
        const screen = plain(withIds.stdout);
        expect(screen).toMatch(/│ STATEMENT │ STATUS │ VERIFY AT +│ ISSUED AT +│/);
        expect(screen).toMatch(
          /│ stmt_a +│ issued │ https:\/\/v\.test\/a │ 2026-02-10 10:30 UTC │/,
        );
        expect(screen).toMatch(/^Has more +no$/m);
      } else {
        expect(withIds.stdout).toBe(
          [
            'STATEMENT\tSTATUS\tCONTENT HASH\tVERIFY AT\tISSUED AT',
            'stmt_a\tissued\tabc\thttps://v.test/a\t2026-02-10 10:30 UTC',
            '\tissued\tdef\thttps://v.test/b\t',
          ].join('\n') + '\n',
        );
        // The reply's fields beside the statements are said on stderr; stdout keeps to the
        // statements.
        expect(withIds.stderr).toBe('has_more: no\n');
      }
      const noIds = await svc(['statements', 'list', '-o', 'wide'], {
        tty,
        service: statements({ statements: [body.statements[1]] }),
      });
      expect(plain(noIds.stdout)).not.toContain('STATEMENT');
      expect(plain(noIds.stdout)).toContain('CONTENT HASH');
    },
  );

  it.each([
    [undefined, 'No statements issued yet.'],
    ['revoked', 'No revoked statements.'],
  ])(
    'an empty list (--status %s) tells a person so; a script gets the header alone',
    async (status, message) => {
      const args = status ? ['statements', 'list', '--status', status] : ['statements', 'list'];
      const path = status ? `/v1/statements?status=${status}` : '/v1/statements';
      const person = await svc(args, { tty: true, service: statements({ statements: [] }, path) });
      expect(plain(person.stdout)).toBe(message + '\n');
      const script = await svc(args, { service: statements({ statements: [] }, path) });
      expect(script.stdout).toBe('STATUS\tCONTENT HASH\tVERIFY AT\n');
    },
  );

  it.each(MODES)('--json prints the body exactly as received, for $mode', async ({ tty }) => {
    const raw =
      '{"statements":[{"status":"issued","content_hash":"abc","verify_url":"https://v.test/a","score":1.50}],"zeta":1}';
    const result = await svc(['statements', 'list', '--json'], {
      tty,
      service: answering('/v1/statements', { raw }),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(plain(result.stdout)).toBe(
      '{\n  "statements": [\n    {\n      "status": "issued",\n      "content_hash": "abc",\n      "verify_url": "https://v.test/a",\n      "score": 1.50\n    }\n  ],\n  "zeta": 1\n}\n',
    );
  });

  it.each(MODES)(
    '-o ndjson writes each statement as one compact line, as received, for $mode',
    async ({ tty }) => {
      const result = await svc(['statements', 'list', '--status', 'issued', '-o', 'ndjson'], {
        tty,
        service: statements(STATEMENTS, '/v1/statements?status=issued'),
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(
        STATEMENTS.statements.map((s) => JSON.stringify(s)).join('\n') + '\n',
      );
    },
  );

  it.each(MODES)(
    '-o csv writes a header row of every key and one row per statement, for $mode',
    async ({ tty }) => {
      const body = {
        statements: [
          ...STATEMENTS.statements,
          { status: 'issued', content_hash: 'a,"b"', verify_url: 'https://v.test/c', tags: ['x'] },
        ],
      };
      const result = await svc(['statements', 'list', '-o', 'csv'], {
        tty,
        service: statements(body),
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(
        [
          // The documented fields first, in their documented order (docs/reference/output.md,
          // "CSV").
          'content_hash,verify_url,status,statement_id,tags',
          `${HASH_1},https://svc.test/verify/stmt_5c9cff02caa141a3,issued,stmt_5c9cff02caa141a3,`,
          `${HASH_2},https://svc.test/verify/stmt_67025b0fea9c05ca,revoked,stmt_67025b0fea9c05ca,`,
          '"a,""b""",https://v.test/c,issued,,x',
        ].join('\r\n') + '\r\n',
      );
    },
  );
});

describe('svc statements list: replies of another shape', () => {
  it.each([
    ['statements is missing', { data: [] }, /"statements" should be a list, but it is missing/],
    [
      'statements is an object',
      { statements: { a: 1 } },
      /"statements" should be a list, but it is an object/,
    ],
    ['the reply is a list', [STATEMENTS.statements[0]], /should be an object, but it is a list/],
  ])(
    'a reply where %s is exit 10 for a table, ndjson and csv; --json prints it',
    async (_what, body, message) => {
      for (const format of [[], ['-o', 'ndjson'], ['-o', 'csv']]) {
        for (const tty of [true, false]) {
          const result = await svc(['statements', 'list', ...format], {
            tty,
            service: statements(body),
          });
          expectFailure(result, 10, /^error: unexpected reply to GET \/v1\/statements: /);
          expect(asErrorLine(unwrapped(result.stderr).split('\n')[0]!)).toMatch(message);
        }
      }
      const json = await svc(['statements', 'list', '--json'], { service: statements(body) });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual(body);
    },
  );

  it('a body that is not JSON is exit 10', async () => {
    const result = await svc(['statements', 'list'], {
      service: answering('/v1/statements', { raw: 'OK' }),
    });
    expectFailure(
      result,
      10,
      'error: GET /v1/statements answered 200 with a body that is not JSON: "OK"',
    );
  });

  it.each(MODES)(
    'statements that are not objects, or lack every field, are blank rows, for $mode',
    async ({ tty }) => {
      const result = await svc(['statements', 'list'], {
        tty,
        service: statements({ statements: [{}, 'stmt_x'] }),
      });
      expect(result.code).toBe(0);
      expect(plain(result.stdout)).not.toMatch(/undefined|null|NaN|\[object Object\]/);
      expect(plain(result.stdout)).toContain('stmt_x');
    },
  );
});

describe('svc statements list: API failures', () => {
  const FAILURES = [
    {
      what: '401',
      status: 401,
      body: ERROR_FLAT,
      exit: 3,
      line: 'error: INVALID_API_KEY: Unknown API key.',
      waits: [] as number[],
    },
    {
      what: '401 (nested)',
      status: 401,
      body: ERROR_NESTED,
      exit: 3,
      line: 'error: INVALID_API_KEY: Key does not exist.',
      waits: [],
    },
    {
      what: '403',
      status: 403,
      body: envelope('PERMISSION_ERROR', 'INSUFFICIENT_SCOPE', 'Not with this key.'),
      exit: 4,
      line: 'error: INSUFFICIENT_SCOPE: Not with this key.',
      waits: [],
    },
    {
      what: '404',
      status: 404,
      body: envelope('INVALID_REQUEST_ERROR', 'NOT_FOUND', 'No such route.'),
      exit: 5,
      line: 'error: NOT_FOUND: No such route.',
      waits: [],
    },
    {
      what: '422',
      status: 422,
      body: envelope('INVALID_REQUEST_ERROR', 'INVALID_REQUEST', 'Bad status.'),
      exit: 6,
      line: 'error: INVALID_REQUEST: Bad status.',
      waits: [],
    },
    {
      what: '429',
      status: 429,
      body: envelope('RATE_LIMIT_ERROR', 'RATE_LIMITED', 'Slow down.'),
      exit: 7,
      line: 'error: RATE_LIMITED: Slow down.',
      waits: [375, 750],
    },
    {
      what: '429 (quota used up)',
      status: 429,
      body: envelope('RATE_LIMIT_ERROR', 'QUOTA_EXCEEDED', 'Quota used up.'),
      exit: 7,
      line: 'error: QUOTA_EXCEEDED: Quota used up.',
      waits: [],
    },
    {
      what: '503',
      status: 503,
      body: envelope('API_ERROR', 'API_ERROR', 'Down.'),
      exit: 8,
      line: 'error: API_ERROR: Down.',
      waits: [375, 750],
    },
  ];

  it.each(FAILURES.flatMap((failure) => MODES.map(({ mode, tty }) => ({ ...failure, mode, tty }))))(
    '$what → exit $exit, for $mode',
    async ({ status, body, exit, line, waits, tty }) => {
      const service = new FakeService();
      for (let i = 0; i <= waits.length; i++)
        service.expect('GET', '/v1/statements', { status, body });
      const result = await svc(['statements', 'list'], { tty, service });
      expectFailure(result, exit, line);
      expect(result.waits).toEqual(waits);
      expect(result.requests).toHaveLength(waits.length + 1);
    },
  );

  it('with --json, stderr is the error envelope as one compact line', async () => {
    const result = await svc(['statements', 'list', '--json'], {
      service: answering('/v1/statements', { status: 401, body: ERROR_FLAT }),
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(JSON.stringify(ERROR_FLAT) + '\n');
  });
});
