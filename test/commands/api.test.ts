// `svc api [METHOD] PATH` in-process, as a person at a terminal and as a script: the method (GET,
// POST with a body, -X), -f/-F fields as the
// JSON body or the query string of a GET, -q, --input, -H, -i, and an error status whose body
// still goes to stdout with the exit code of docs/reference/exit-codes.md.
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { METHODS } from '../../src/commands/api/fields.js';
import { MAX_INPUT_BYTES } from '../../src/commands/api/input.js';
import { allCommands, describeProgram } from '../../src/core/completion/spec.js';
import { processIO } from '../../src/core/io.js';
import { buildProgram } from '../../src/main.js';
import {
  expectFailure,
  type FakeReply,
  FakeService,
  KEY,
  MODES,
  plain,
  scratchDir,
  type SeenRequest,
  svc,
  unwrapped,
} from '../support/in-process.js';

const ID = 'rpt_e8699f830adc84b8';
const MATCH = { result: 'match', score: 0.97, statement_name: 'Ram Bahadur Shrestha' };
const LIST = { data: [{ report_id: ID, status: 'complete' }], has_more: false };

let files = 0;
function file(content: string): string {
  const path = join(scratchDir(), `api-${++files}.txt`);
  writeFileSync(path, content);
  return path;
}

/** One expected request, answered with `reply`; the request is returned for the test to read. */
function one(
  method: string,
  path: string | ((r: SeenRequest) => boolean),
  reply: FakeReply = { body: LIST },
): FakeService {
  return new FakeService().expect(method, path, reply);
}

describe('GET', () => {
  it.each([false, true])(
    'sends -q parameters and -f fields as the query string and prints the body as pretty JSON (tty: %s)',
    async (tty) => {
      const result = await svc(
        ['api', 'GET', 'reports', '-q', 'limit=2', '-f', 'status=complete'],
        { tty, service: one('GET', '/v1/reports?limit=2&status=complete') },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      // The same bytes for a person and a script: JSON, no colour.
      expect(plain(result.stdout)).toBe(JSON.stringify(LIST, null, 2) + '\n');
      expect(result.requests[0]!.body).toBeUndefined();
      expect(result.requests[0]!.headers['content-type']).toBeUndefined();
      expect(result.requests[0]!.headers['idempotency-key']).toBeUndefined();
    },
  );

  it('takes the path with or without /v1, and with its own query string', async () => {
    for (const path of ['/v1/usage', 'v1/usage', '/usage', 'usage']) {
      const result = await svc(['api', 'get', path], {
        service: one('GET', '/v1/usage', { body: {} }),
      });
      expect(result.code, path).toBe(0);
    }
    const result = await svc(['api', 'GET', 'reports?status=failed', '-q', 'limit=1'], {
      service: one('GET', '/v1/reports?status=failed&limit=1'),
    });
    expect(result.code).toBe(0);
  });

  it('-F values are typed, and arrays become repeated parameters', async () => {
    const result = await svc(
      [
        'api',
        'GET',
        'statements',
        '-F',
        'status[]=issued',
        '-F',
        'status[]=revoked',
        '-F',
        'limit=5',
        '-F',
        'on=true',
        '-F',
        'none=null',
      ],
      {
        service: one('GET', '/v1/statements?status=issued&status=revoked&limit=5&on=true&none='),
      },
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it('query values are URL-encoded', async () => {
    const result = await svc(['api', 'GET', 'reports', '-f', 'name=Ram & Sita', '-q', 'q=a=b'], {
      service: one('GET', '/v1/reports?q=a%3Db&name=Ram+%26+Sita'),
    });
    expect(result.code, result.stderr).toBe(0);
  });

  it('sends the key, Accept and the User-Agent', async () => {
    const result = await svc(['api', 'GET', 'usage'], {
      service: one('GET', '/v1/usage', { body: {} }),
    });
    const headers = result.requests[0]!.headers;
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(headers.accept).toBe('application/json');
    expect(headers['user-agent']).toMatch(/^svc\/\S+ node\/\S+$/);
  });

  it('-i prints the status line and the headers first, then a blank line and the body', async () => {
    const reply = { body: { plan: 'growth' }, headers: { 'x-request-id': 'req_0123456789abcdef' } };
    const result = await svc(['api', 'GET', 'usage', '-i'], {
      service: one('GET', '/v1/usage', reply),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'HTTP/1.1 200 OK\ncontent-type: application/json\nx-request-id: req_0123456789abcdef\n\n{\n  "plan": "growth"\n}\n',
    );
  });
});

describe('POST and other methods with a body', () => {
  it.each([false, true])(
    '-F fields are typed and -f fields are strings, nested with [] and [key], as the JSON body (tty: %s)',
    async (tty) => {
      const name = file('Ram B. Shrestha');
      const result = await svc(
        [
          'api',
          'POST',
          `reports/${ID}/identity/match`,
          '-F',
          `name=@${name}`,
          '-F',
          'count=5',
          '-F',
          'ratio=-1.5e2',
          '-F',
          'on=true',
          '-F',
          'off=false',
          '-F',
          'none=null',
          '-f',
          'text=5',
          '-F',
          'big=12345678901234567890',
          '-F',
          'list[]=1',
          '-F',
          'list[]=two',
          '-f',
          'meta[source]=cli',
          '-F',
          'meta[depth][level]=2',
        ],
        { tty, service: one('POST', `/v1/reports/${ID}/identity/match`, { body: MATCH }) },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(plain(result.stdout))).toEqual(MATCH);
      const [request] = result.requests;
      expect(request!.headers['content-type']).toBe('application/json');
      expect(request!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(request!.json).toEqual({
        name: 'Ram B. Shrestha',
        count: 5,
        ratio: -150,
        on: true,
        off: false,
        none: null,
        text: '5',
        big: '12345678901234567890',
        list: [1, 'two'],
        meta: { source: 'cli', depth: { level: 2 } },
      });
    },
  );

  it('-F key=@- reads the value from stdin', async () => {
    const result = await svc(['api', 'POST', `reports/${ID}/identity/match`, '-F', 'name=@-'], {
      stdin: 'Shrestha Ram Bahadur',
      service: one('POST', `/v1/reports/${ID}/identity/match`, { body: MATCH }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.requests[0]!.json).toEqual({ name: 'Shrestha Ram Bahadur' });
  });

  it('--input - sends stdin as the body, byte for byte; fields then go to the query string', async () => {
    const input = '{"name":   "Ram Bahadur Shrestha"}\n';
    const result = await svc(
      ['api', 'POST', `/v1/reports/${ID}/identity/match`, '--input', '-', '-f', 'trace=1'],
      {
        stdin: input,
        service: one('POST', `/v1/reports/${ID}/identity/match?trace=1`, { body: MATCH }),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).result).toBe('match');
    expect(result.requests[0]!.body).toBe(input);
    expect(result.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('--input FILE sends the file', async () => {
    const body = '{"scopes":["identity"],"redirect_uri":"https://app.example.com/done"}';
    const reply = {
      request_token: 'creq_0123',
      connect_url: 'https://svc.test/connect?token=creq_0123',
    };
    const result = await svc(['api', 'POST', 'connect/request', '--input', file(body)], {
      service: one('POST', '/v1/connect/request', { body: reply }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.requests[0]!.body).toBe(body);
    expect(JSON.parse(result.stdout)).toEqual(reply);
  });

  it('-H adds a header, replacing a default of the same name', async () => {
    const result = await svc(
      [
        'api',
        'POST',
        `reports/${ID}/identity/match`,
        '-f',
        'name=Ram',
        '-H',
        'X-Trace: abc 123',
        '-H',
        'idempotency-key: my-key-1',
        '-H',
        'accept:  text/plain',
      ],
      {
        service: one('POST', `/v1/reports/${ID}/identity/match`, { body: MATCH }),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const headers = result.requests[0]!.headers;
    expect(headers['x-trace']).toBe('abc 123');
    expect(headers['idempotency-key']).toBe('my-key-1');
    expect(headers.accept).toBe('text/plain');
  });

  it.each([['PUT'], ['PATCH'], ['DELETE']])(
    '%s sends the fields as the JSON body',
    async (method) => {
      const result = await svc(['api', method.toLowerCase(), 'things/1', '-f', 'a=b'], {
        service: one(method, '/v1/things/1', { body: {} }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.requests[0]!.json).toEqual({ a: 'b' });
    },
  );

  it('a POST without fields sends no body', async () => {
    const result = await svc(['api', 'POST', 'things'], {
      service: one('POST', '/v1/things', { body: {} }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.requests[0]!.body).toBeUndefined();
  });
});

describe('error statuses', () => {
  const NOT_FOUND = {
    error_type: 'NOT_FOUND_ERROR',
    error_code: 'REPORT_NOT_FOUND',
    error_message: "No report with id 'rpt_0000000000000000' exists for this organization.",
    request_id: 'req_0123',
  };

  it.each([false, true])(
    '404: the error body on stdout as pretty JSON, a one-line summary on stderr, exit 5 (tty: %s)',
    async (tty) => {
      const result = await svc(['api', 'GET', 'reports/rpt_0000000000000000'], {
        tty,
        service: one('GET', '/v1/reports/rpt_0000000000000000', { status: 404, body: NOT_FOUND }),
      });
      expect(result.code).toBe(5);
      expect(plain(result.stdout)).toBe(JSON.stringify(NOT_FOUND, null, 2) + '\n');
      expect(unwrapped(result.stderr)).toBe(
        "error: HTTP 404: REPORT_NOT_FOUND: No report with id 'rpt_0000000000000000' exists for this organization.\n",
      );
    },
  );

  it.each([
    [
      400,
      {
        error_type: 'INVALID_REQUEST_ERROR',
        error_code: 'INVALID_REQUEST',
        error_message: "'name' is required.",
      },
      6,
    ],
    [
      401,
      {
        error_type: 'AUTHENTICATION_ERROR',
        error_code: 'INVALID_API_KEY',
        error_message: 'The API key is not valid.',
      },
      3,
    ],
    [
      403,
      {
        error_type: 'PERMISSION_ERROR',
        error_code: 'INSUFFICIENT_SCOPE',
        error_message: 'Read-only key.',
      },
      4,
    ],
    [
      403,
      {
        error_type: 'PERMISSION_ERROR',
        error_code: 'TEST_KEY_REQUIRED',
        error_message: 'Test keys only.',
      },
      4,
    ],
    [
      409,
      {
        error_type: 'INVALID_REQUEST_ERROR',
        error_code: 'REPORT_NOT_READY',
        error_message: 'Still processing.',
      },
      6,
    ],
    [
      422,
      {
        error_type: 'INVALID_REQUEST_ERROR',
        error_code: 'UNSUPPORTED_BANK',
        error_message: 'Unsupported.',
      },
      6,
    ],
    [
      429,
      {
        error_type: 'RATE_LIMIT_ERROR',
        error_code: 'QUOTA_EXCEEDED',
        error_message: 'Quota used up.',
      },
      7,
    ],
    [500, { error_type: 'API_ERROR', error_code: 'API_ERROR', error_message: 'Boom.' }, 8],
    [418, { error_code: 'TEAPOT' }, 1],
  ])('status %i with %j: exit %i, the body on stdout', async (status, body, exit) => {
    const result = await svc(['api', 'POST', 'things', '--retries', '0'], {
      service: one('POST', '/v1/things', { status, body }),
    });
    expect(result.code).toBe(exit);
    expect(JSON.parse(result.stdout)).toEqual(body);
    expect(result.stderr).toMatch(new RegExp(`^error: HTTP ${status}: ${body.error_code}`));
    // A refused key adds one line: which key it was (SVC_API_KEY here), never the key.
    expect(unwrapped(result.stderr).trimEnd().split('\n')).toHaveLength(status === 401 ? 2 : 1);
  });

  it('a refused Authorization header given with -H is said to be that header, not the key of svc', async () => {
    const body = {
      error_type: 'AUTHENTICATION_ERROR',
      error_code: 'INVALID_API_KEY',
      error_message: 'Unknown API key.',
    };
    const result = await svc(['api', 'usage', '-H', 'Authorization: Bearer x'], {
      service: one('GET', '/v1/usage', { status: 401, body }),
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      'error: HTTP 401: INVALID_API_KEY: Unknown API key.\nThe service refused the Authorization header given with -H.\n',
    );
  });

  it.each([false, true])(
    'a refused key says which key it was and to run svc login, the body still on stdout (tty: %s)',
    async (tty) => {
      const body = {
        error_type: 'AUTHENTICATION_ERROR',
        error_code: 'INVALID_API_KEY',
        error_message: 'Unknown API key.',
      };
      const result = await svc(['api', 'usage'], {
        tty,
        service: one('GET', '/v1/usage', { status: 401, body }),
      });
      expect(result.code).toBe(3);
      expect(JSON.parse(plain(result.stdout))).toEqual(body);
      expect(unwrapped(result.stderr)).toBe(
        'error: HTTP 401: INVALID_API_KEY: Unknown API key.\nThe service refused the key in SVC_API_KEY. Set it to a valid key, or unset it and run `svc login`.\n',
      );
      expect(result.stderr).not.toContain(KEY);
    },
  );

  it('the older nested envelope is decoded for the exit code', async () => {
    const body = { error: { code: 'invalid_api_key', message: 'Bad key.' } };
    const result = await svc(['api', 'GET', 'usage'], {
      service: one('GET', '/v1/usage', { status: 401, body }),
    });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual(body);
  });

  it('an error reply that is no envelope is printed as it came, classed by its status', async () => {
    const reply = {
      status: 502,
      raw: '<html>Bad gateway</html>',
      headers: { 'content-type': 'text/plain' },
    };
    const result = await svc(['api', 'GET', 'usage', '-i', '--retries', '0'], {
      service: one('GET', '/v1/usage', reply),
    });
    expect(result.code).toBe(8);
    const [head, body] = result.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 502 Bad Gateway');
    expect(head).toMatch(/^content-type: text\/plain$/m);
    expect(body).toBe('<html>Bad gateway</html>\n');
    expect(result.stderr).toBe('error: HTTP 502 Bad Gateway\n');
  });

  it('a GET answered 503 is retried, the body of the last reply printed', async () => {
    const busy = { error_type: 'API_ERROR', error_code: 'API_ERROR', error_message: 'Busy.' };
    const service = new FakeService()
      .expect('GET', '/v1/usage', { status: 503, body: busy })
      .expect('GET', '/v1/usage', { status: 503, body: busy })
      .expect('GET', '/v1/usage', { status: 503, body: busy });
    const result = await svc(['api', 'GET', 'usage'], { service });
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stdout)).toEqual(busy);
    expect(result.waits).toHaveLength(2);
  });

  it('-i on an error status prints the status line and the headers, then the body', async () => {
    const reply = { status: 404, body: NOT_FOUND, headers: { 'x-request-id': 'req_0123' } };
    const result = await svc(['api', 'GET', 'reports/rpt_0000000000000000', '-i'], {
      service: one('GET', '/v1/reports/rpt_0000000000000000', reply),
    });
    expect(result.code).toBe(5);
    const [head, body] = result.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(head).toMatch(/^x-request-id: req_0123$/m);
    expect(JSON.parse(body!)).toEqual(NOT_FOUND);
  });

  it('--json does not change the output: the body on stdout, the summary on stderr', async () => {
    const result = await svc(['api', 'GET', 'reports/rpt_0000000000000000', '--json'], {
      service: one('GET', '/v1/reports/rpt_0000000000000000', { status: 404, body: NOT_FOUND }),
    });
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout)).toEqual(NOT_FOUND);
  });
});

describe('replies other commands refuse', () => {
  it.each([false, true])(
    'prints a successful body that is not JSON, and exits 10 as any command does (tty: %s)',
    async (tty) => {
      const result = await svc(['api', 'GET', 'usage'], {
        tty,
        service: one('GET', '/v1/usage', {
          raw: 'plain text, not JSON',
          headers: { 'content-type': 'text/plain' },
        }),
      });
      expect(result.code).toBe(10);
      expect(result.stdout).toBe('plain text, not JSON\n');
      expect(result.stderr).toBe(
        'error: GET /v1/usage answered 200 with a body that is not JSON\n',
      );
    },
  );

  it('never sends control or bidirectional characters of a reply to a terminal: body, headers, JSON strings', async () => {
    const hostile = 'a\x1b]0;title\x07b\x1b[2Jc\u009b31md\u202ee';
    const text = await svc(['api', 'GET', 'usage', '-i'], {
      tty: true,
      service: one('GET', '/v1/usage', { raw: hostile, headers: { 'x-note': 'x\u009b2Jy' } }),
    });
    expect(text.stdout).toContain('x-note: x2Jy\n');
    expect(text.stdout).toContain('a]0;titleb[2Jc31mde\n');
    const json = await svc(['api', 'GET', 'usage', '--no-color'], {
      tty: true,
      service: one('GET', '/v1/usage', {
        raw: JSON.stringify({ name: 'c\u009b31md\u202ee\u007f' }),
      }),
    });
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('{\n  "name": "c\\u009b31md\\u202ee\\u007f"\n}\n');
    expect(JSON.parse(json.stdout)).toEqual({ name: 'c\u009b31md\u202ee\u007f' });
    // In a pipe the reply is as received.
    const piped = await svc(['api', 'GET', 'usage'], {
      service: one('GET', '/v1/usage', { raw: JSON.stringify({ name: 'c\u009b31md\u202ee' }) }),
    });
    expect(piped.stdout).toBe('{\n  "name": "c\u009b31md\u202ee"\n}\n');
  });

  it('prints nothing for an empty 204 reply (exit 0); -i prints its status line', async () => {
    const empty = await svc(['api', 'POST', 'usage'], {
      service: one('POST', '/v1/usage', { status: 204, raw: '' }),
    });
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toBe('');
    const included = await svc(['api', 'POST', 'usage', '-i'], {
      service: one('POST', '/v1/usage', { status: 204, raw: '' }),
    });
    expect(included.code, included.stderr).toBe(0);
    expect(included.stdout.split('\n')[0]).toBe('HTTP/1.1 204 No Content');
    expect(included.stderr).toBe('');
  });

  it('a reply holding the key is masked', async () => {
    const result = await svc(['api', 'GET', 'usage'], {
      service: one('GET', '/v1/usage', { body: { echo: KEY } }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(KEY);
    expect(result.stderr).toMatch(/^warning: the output held a secret in use/m);
  });
});

describe('the method, as in gh api: PATH alone is a GET, or a POST with a body; -X picks another', () => {
  it.each([false, true])(
    'PATH alone is a GET, -f fields and -q its query string (tty: %s)',
    async (tty) => {
      const result = await svc(['api', 'reports', '-q', 'limit=2'], {
        tty,
        service: one('GET', '/v1/reports?limit=2'),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(plain(result.stdout)).toBe(JSON.stringify(LIST, null, 2) + '\n');
      expect(result.requests[0]!.body).toBeUndefined();
    },
  );

  it.each([false, true])(
    'PATH with -f or -F fields is a POST with the JSON body (tty: %s)',
    async (tty) => {
      const result = await svc(
        ['api', `reports/${ID}/identity/match`, '-f', 'name=Ram', '-F', 'strict=true'],
        { tty, service: one('POST', `/v1/reports/${ID}/identity/match`, { body: MATCH }) },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.requests[0]!.json).toEqual({ name: 'Ram', strict: true });
      expect(result.requests[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(plain(result.stdout))).toEqual(MATCH);
    },
  );

  it('PATH with --input is a POST of that body', async () => {
    const result = await svc(['api', 'connect/request', '--input', '-'], {
      stdin: '{"scopes":["identity"]}',
      service: one('POST', '/v1/connect/request', { body: {} }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.requests[0]!.body).toBe('{"scopes":["identity"]}');
  });

  it.each([
    [['-X', 'PATCH', 'things/1', '-f', 'a=b'], 'PATCH', '/v1/things/1', { a: 'b' }],
    [['--method', 'delete', 'things/1'], 'DELETE', '/v1/things/1', undefined],
    [['things', '-X', 'POST'], 'POST', '/v1/things', undefined],
    [
      ['-X', 'GET', 'reports', '-f', 'status=failed'],
      'GET',
      '/v1/reports?status=failed',
      undefined,
    ],
    [['GET', 'reports', '-X', 'get'], 'GET', '/v1/reports', undefined],
  ] as [string[], string, string, unknown][])('%j is %s %s', async (args, method, path, json) => {
    const result = await svc(['api', ...args], { service: one(method, path, { body: {} }) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.requests[0]!.json).toEqual(json);
  });

  it('METHOD PATH keeps working, a lower-case method too', async () => {
    for (const method of ['GET', 'get']) {
      const result = await svc(['api', method, 'usage'], {
        service: one('GET', '/v1/usage', { body: {} }),
      });
      expect(result.code, result.stderr).toBe(0);
    }
    const post = await svc(['api', 'POST', 'things'], {
      service: one('POST', '/v1/things', { body: {} }),
    });
    expect(post.code, post.stderr).toBe(0);
  });

  it('the help shows PATH alone first, and -X', async () => {
    const result = await svc(['api', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: svc api <method-or-path> \[path\]/m);
    expect(result.stdout).toMatch(/-X, --method <method>/);
    expect(result.stdout).toContain('$ svc api reports -q status=complete -q limit=5');
  });

  it('completion offers the methods for the first word and for -X', () => {
    const spec = describeProgram(
      buildProgram({ action: () => async () => {} }, { ...processIO(), env: {} }),
    );
    const api = allCommands(spec.root).find((c) => c.path.join(' ') === 'api')!;
    const methods = { kind: 'choices', choices: METHODS.map((value) => ({ value })) };
    expect(api.args.map((a) => [a.name, a.required])).toEqual([
      ['method-or-path', true],
      ['path', false],
    ]);
    expect(api.args[0]!.value).toEqual(methods);
    expect(api.flags.find((f) => f.long === '--method')).toMatchObject({
      short: '-X',
      value: methods,
    });
  });
});

describe('refused before any request (exit 2)', () => {
  it.each([
    [
      ['FETCH', 'usage'],
      /^error: "FETCH" is not a method \(GET, POST, PUT, PATCH, DELETE\): give PATH alone, or METHOD PATH/,
    ],
    [['-X', 'FETCH', 'usage'], /^error: unknown method "FETCH"/],
    [['GET', 'usage', '-X', 'POST'], /^error: two methods: GET and -X POST; give one/],
    [['DELETE'], /^error: DELETE needs a PATH after it, as in `svc api DELETE reports`/],
    [['usage', '-X', 'GET', '--input', '-'], /--input cannot be used with GET/],
    [
      ['GET', 'https://api.example.com/v1/usage'],
      /^error: PATH is a path such as \/v1\/reports, not a URL/,
    ],
    [['GET', '../_mock/requests'], /must not contain \. or \.\. segments/],
    [['GET', 'reports/%2e%2e/usage'], /must not contain \. or \.\. segments/],
    [['GET', 'reports#top'], /must not contain white space or #/],
    [['GET', 'reports', '--input', '-'], /--input cannot be used with GET/],
    [['POST', 'x', '-f', 'novalue'], /^error: -f takes key=value, not "novalue"/],
    [['POST', 'x', '-F', '=1'], /^error: -F takes key=value/],
    [['GET', 'x', '-q', 'novalue'], /^error: -q takes key=value/],
    [['POST', 'x', '-f', 'a=1', '-f', 'a[b]=2'], /clashes with an earlier field/],
    [['POST', 'x', '-f', 'a[][b]=1'], /may end with \[\] but not have it in the middle/],
    [['POST', 'x', '-F', 'a=@-', '--input', '-'], /standard input is read once/],
    [['POST', 'x', '-F', 'a=@/nonexistent/file'], /cannot read \/nonexistent\/file: no such file/],
    [
      ['POST', 'x', '--input', '/nonexistent/body.json'],
      /cannot read \/nonexistent\/body\.json: no such file/,
    ],
    [['GET', 'x', '-f', 'a[b]=1'], /a query string has flat names only/],
    [['GET', 'x', '-H', 'Bad Header: 1'], /-H takes "Name: value"/],
    [['GET', 'x', '-H', 'Host: example.com'], /the Host header is set by svc itself/],
    [['GET', 'x', '-H', 'X-Name: ünïcødé ✓'], /only Latin-1/],
  ])('%j', async (args, message) => {
    for (const tty of [false, true]) {
      // The fake service expects no request: one sent would fail the test.
      const result = await svc(['api', ...args], { tty, stdin: '{}' });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toMatch(message);
    }
  });

  it('needs a key and a base URL like every request command', async () => {
    const noKey = await svc(['api', 'GET', 'usage'], {
      env: { SVC_API_KEY: undefined, SVC_CONFIG_DIR: join(scratchDir(), 'api-empty-config') },
    });
    expect(noKey.code).toBe(3);
    const noUrl = await svc(['api', 'GET', 'usage'], {
      env: { SVC_BASE_URL: undefined, SVC_CONFIG_DIR: join(scratchDir(), 'api-empty-config') },
    });
    expect(noUrl.code).toBe(2);
  });
});

describe('the path stays under /v1 of the base URL: refused before any request (exit 2)', () => {
  // A URL reads `\\` as `/`, and a server that decodes a path reads %2f, %5c and %2e as / \\ and .:
  // each of these would take the key out of /v1, and out of the base URL's own path.
  const PREFIXED = { SVC_BASE_URL: 'https://svc.test/prefix' };
  const ESCAPES: [string, RegExp][] = [
    [
      'x\\..\\..\\_mock\\requests',
      /^error: PATH "x\\\.\.\\\.\.\\_mock\\requests" must not contain \\, which a URL reads as \/$/,
    ],
    ['/v1\\..\\admin', /must not contain \\, which a URL reads as \//],
    ['reports\\rpt_1', /must not contain \\, which a URL reads as \//],
    [
      'reports/..%2f..%2fadmin',
      /^error: PATH "reports\/\.\.%2f\.\.%2fadmin" must not contain %2f, an encoded \/ \\ or \.$/,
    ],
    ['reports/%2E%2E%5Cadmin', /must not contain %2E, an encoded \/ \\ or \.$/],
    ['reports/a%5cb', /must not contain %5c, an encoded/],
    ['reports/rpt%2ejson', /must not contain %2e, an encoded/],
    ['reports/a%252fb', /must not contain %252f, an encoded/],
    ['reports/a%25252Eb', /must not contain %25252E, an encoded/],
    ['reports/..;/admin', /must not contain \. or \.\. segments/],
    ['reports/%2e%2e;x/admin', /must not contain \. or \.\. segments/],
  ];

  describe.each(MODES)('as $mode', ({ tty }) => {
    it.each(ESCAPES)('svc api %j', async (path, message) => {
      // The fake service expects no request: one sent would fail the test.
      for (const args of [[path], ['GET', path], ['-X', 'POST', path, '-f', 'a=1']]) {
        const result = await svc(['api', ...args], { tty, env: PREFIXED });
        expectFailure(result, 2, message);
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(result.requests).toEqual([]);
      }
    });
  });

  it.each(MODES)(
    "as $mode, what is encoded in the query is the service's to read, and sent as given",
    async ({ tty }) => {
      const service = one('GET', '/prefix/v1/reports?name=a%2fb%5c%2e', { body: LIST });
      const result = await svc(['api', 'reports?name=a%2fb%5c%2e'], {
        tty,
        env: PREFIXED,
        service,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
    },
  );
});

describe('local input is read up to a limit: past it, refused before any request (exit 2)', () => {
  const LIMIT = `${MAX_INPUT_BYTES / 1024 / 1024} MB`;
  const refusal = (by: string) =>
    `error: ${by}: more than ${LIMIT} to send; svc api takes at most ${LIMIT} from files and standard input for one request`;

  /** A sparse file of `bytes` bytes: no disk is spent on it. */
  function sized(bytes: number): string {
    const path = file('');
    truncateSync(path, bytes);
    return path;
  }

  describe.each(MODES)('as $mode', ({ tty }) => {
    it('--input /dev/zero, a device that never ends', async () => {
      const result = await svc(['api', 'POST', 'enrich', '--input', '/dev/zero'], { tty });
      expectFailure(result, 2, refusal('--input /dev/zero'));
      expect(unwrapped(result.stderr).trimEnd().split('\n')).toHaveLength(1);
    });

    it('-F key=@/dev/zero', async () => {
      const result = await svc(['api', 'POST', 'enrich', '-F', 'transactions=@/dev/zero'], { tty });
      expectFailure(result, 2, refusal('-F transactions=@/dev/zero'));
    });

    it('--input - with more on standard input than the limit', async () => {
      const result = await svc(['api', 'POST', 'enrich', '--input', '-'], {
        tty,
        stdin: ' '.repeat(MAX_INPUT_BYTES + 1),
      });
      expectFailure(result, 2, refusal('--input -'));
    });

    it('-F key=@- with more on standard input than the limit', async () => {
      const result = await svc(['api', 'POST', 'enrich', '-F', 'note=@-'], {
        tty,
        stdin: 'x'.repeat(MAX_INPUT_BYTES + 1),
      });
      expectFailure(result, 2, refusal('-F note=@-'));
    });

    it('a file one byte past the limit; the limit is for all the files of a request together', async () => {
      const over = sized(MAX_INPUT_BYTES + 1);
      expectFailure(
        await svc(['api', 'POST', 'enrich', '--input', over], { tty }),
        2,
        refusal(`--input ${over}`),
      );
      const half = sized(MAX_INPUT_BYTES / 2 + 1);
      const result = await svc(['api', 'POST', 'enrich', '-F', `a=@${half}`, '--input', half], {
        tty,
      });
      expectFailure(result, 2, refusal(`--input ${half}`));
    });
  });

  it('a file of exactly the limit is sent whole', async () => {
    const path = sized(MAX_INPUT_BYTES);
    const result = await svc(['api', 'POST', 'enrich', '--input', path], {
      service: one('POST', '/v1/enrich', { body: {} }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.requests[0]!.bytes).toHaveLength(MAX_INPUT_BYTES);
  });

  it('the help names the limit', async () => {
    const result = await svc(['api', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(
      `Files and standard input (--input, -F key=@file) give a request at most ${LIMIT} in all; more is refused (exit 2).`,
    );
  });
});
