// `svc api METHOD PATH`, in the manner of `gh api`, against svc mock.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useWorld } from './harness.js';

const world = useWorld();
const COMPLETE = 'rpt_e8699f830adc84b8'; // Ram Bahadur Shrestha

async function onlyRequest() {
  const requests = await world.requests();
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

describe('GET', () => {
  it('sends -q parameters and -f fields as the query string and prints the body as pretty JSON', async () => {
    const r = await world.svc(['api', 'GET', 'reports', '-q', 'limit=2', '-f', 'status=complete']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\{\n  "data": \[\n    \{\n      "report_id": "rpt_/);
    const body = JSON.parse(r.stdout);
    expect(body.data).toHaveLength(2);
    expect(body.data.every((x: { status: string }) => x.status === 'complete')).toBe(true);
    expect(await onlyRequest()).toMatchObject({ method: 'GET', path: '/v1/reports', query: { limit: '2', status: 'complete' }, body: null });
  });

  it('takes the path with or without /v1, and with its own query string', async () => {
    for (const path of ['/v1/usage', 'v1/usage', '/usage', 'usage']) {
      await world.reset();
      const r = await world.svc(['api', 'get', path]);
      expect(r.code).toBe(0);
      expect((await onlyRequest()).path).toBe('/v1/usage');
    }
    await world.reset();
    await world.svc(['api', 'GET', 'reports?status=failed', '-q', 'limit=1']);
    expect((await onlyRequest()).query).toEqual({ status: 'failed', limit: '1' });
  });

  it('-F arrays become repeated parameters', async () => {
    await world.svc(['api', 'GET', 'statements', '-F', 'status[]=issued', '-F', 'status[]=revoked']);
    expect((await onlyRequest()).query).toEqual({ status: ['issued', 'revoked'] });
  });

  it('-i prints the status line and the headers first', async () => {
    const r = await world.svc(['api', 'GET', 'usage', '-i']);
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(head).toMatch(/^x-request-id: req_[0-9a-f]+$/m);
    // The documented usage reply.
    expect(Object.keys(JSON.parse(body!))).toEqual(expect.arrayContaining(['plan', 'quota', 'used', 'remaining', 'period', 'resets_at']));
  });
});

describe('POST', () => {
  it('-F fields are typed and -f fields are strings, nested with [] and [key], as the JSON body', async () => {
    const dir = world.tempDir();
    const nameFile = join(dir, 'name.txt');
    writeFileSync(nameFile, 'Ram B. Shrestha');
    const r = await world.svc([
      'api', 'POST', `reports/${COMPLETE}/identity/match`,
      '-F', `name=@${nameFile}`,
      '-F', 'count=5', '-F', 'ratio=-1.5e2', '-F', 'on=true', '-F', 'off=false', '-F', 'none=null',
      '-f', 'text=5', '-F', 'big=12345678901234567890',
      '-F', 'list[]=1', '-F', 'list[]=two', '-f', 'meta[source]=cli', '-F', 'meta[depth][level]=2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ result: expect.any(String), statement_name: 'Ram Bahadur Shrestha' });
    const request = await onlyRequest();
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(request.body!)).toEqual({
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
  });

  it('-F key=@- reads the value from stdin', async () => {
    const r = await world.svc(['api', 'POST', `reports/${COMPLETE}/identity/match`, '-F', 'name=@-'], { input: 'Shrestha Ram Bahadur' });
    expect(r.code).toBe(0);
    expect(JSON.parse((await onlyRequest()).body!)).toEqual({ name: 'Shrestha Ram Bahadur' });
  });

  it('--input - sends stdin as the body, byte for byte; fields then go to the query string', async () => {
    const input = '{"name":   "Ram Bahadur Shrestha"}\n';
    const r = await world.svc(['api', 'POST', `/v1/reports/${COMPLETE}/identity/match`, '--input', '-', '-f', 'trace=1'], { input });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe('match');
    const request = await onlyRequest();
    expect(request.body).toBe(input);
    expect(request.query).toEqual({ trace: '1' });
  });

  it('--input FILE sends the file', async () => {
    const file = join(world.tempDir(), 'body.json');
    writeFileSync(file, '{"scopes":["identity"],"redirect_uri":"https://app.example.com/done"}');
    const r = await world.svc(['api', 'POST', 'connect/request', '--input', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('request_token');
  });

  it('-H adds a header, replacing a default of the same name', async () => {
    const r = await world.svc(['api', 'POST', `reports/${COMPLETE}/identity/match`, '-f', 'name=Ram', '-H', 'X-Trace: abc 123', '-H', 'idempotency-key: my-key-1']);
    expect(r.code).toBe(0);
    const request = await onlyRequest();
    expect(request.headers['x-trace']).toBe('abc 123');
    expect(request.headers['idempotency-key']).toBe('my-key-1');
  });
});

describe('error statuses', () => {
  it('404: the error body on stdout, a one-line summary on stderr, exit 5', async () => {
    const r = await world.svc(['api', 'GET', 'reports/rpt_0000000000000000']);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout)).toMatchObject({ error_code: 'REPORT_NOT_FOUND', error_type: 'NOT_FOUND_ERROR' });
    expect(r.stdout).toMatch(/^\{\n  "error_type"/);
    expect(r.stderr).toBe("error: HTTP 404: REPORT_NOT_FOUND: No report with id 'rpt_0000000000000000' exists for this organization.\n");
  });

  it('400 is exit 6, 401 is exit 3, 403 is exit 4', async () => {
    const bad = await world.svc(['api', 'POST', `reports/${COMPLETE}/identity/match`, '-f', 'name=']);
    expect(bad.code).toBe(6);
    expect(JSON.parse(bad.stdout).error_code).toBe('INVALID_REQUEST');
    const unknownKey = await world.svc(['api', 'GET', 'usage'], { env: { SVC_API_KEY: 'svc_sk_test_00000000000000000000000000000000' } });
    expect(unknownKey.code).toBe(3);
    expect(unknownKey.stderr).toMatch(/^error: HTTP 401: INVALID_API_KEY: /);
    const readOnly = await world.svc(['api', 'POST', 'connect/request', '--input', '-'], { input: '{}', env: { SVC_API_KEY: world.key(0, 'test', 'READ_ONLY').key } });
    expect(readOnly.code).toBe(4);
  });

  it('an error reply that is no envelope is printed as it came, classed by its status', async () => {
    await world.fault({ method: 'GET', path: '/v1/usage', status: 502, body: '<html>Bad gateway</html>', times: 3 });
    const r = await world.svc(['api', 'GET', 'usage', '-i', '--retries', '0']);
    expect(r.code).toBe(8);
    const [head, body] = r.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 502 Bad Gateway');
    expect(head).toMatch(/^content-type: text\/plain/m);
    expect(body).toBe('<html>Bad gateway</html>\n');
    expect(r.stderr).toBe('error: HTTP 502 Bad Gateway\n');
  });
});

describe('refused before any request (exit 2)', () => {
  it.each([
    [['FETCH', 'usage'], /^error: unknown method "FETCH"/],
    [['GET', 'https://api.example.com/v1/usage'], /^error: PATH is a path such as \/v1\/reports, not a URL/],
    [['GET', '../_mock/requests'], /must not contain \. or \.\. segments/],
    [['GET', 'reports#top'], /must not contain white space or #/],
    [['GET', 'reports', '--input', '-'], /--input cannot be used with GET/],
    [['POST', 'x', '-f', 'novalue'], /^error: -f takes key=value, not "novalue"/],
    [['POST', 'x', '-F', '=1'], /^error: -F takes key=value/],
    [['POST', 'x', '-f', 'a=1', '-f', 'a[b]=2'], /clashes with an earlier field/],
    [['POST', 'x', '-f', 'a[][b]=1'], /may end with \[\] but not have it in the middle/],
    [['POST', 'x', '-F', 'a=@-', '--input', '-'], /standard input is read once/],
    [['POST', 'x', '-F', 'a=@/nonexistent/file'], /cannot read \/nonexistent\/file: no such file/],
    [['GET', 'x', '-f', 'a[b]=1'], /a query string has flat names only/],
    [['GET', 'x', '-H', 'Bad Header: 1'], /-H takes "Name: value"/],
    [['GET', 'x', '-H', 'Host: example.com'], /the Host header is set by svc itself/],
  ])('%j', async (args, message) => {
    const r = await world.svc(['api', ...args], { input: '{}' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(await world.requests()).toEqual([]);
  });
});

describe('svc api with replies other commands refuse', () => {
  it('-i on an error status prints the status line and the headers, then the body', async () => {
    const r = await world.svc(['api', 'GET', 'reports/rpt_0000000000000000', '-i']);
    expect(r.code).toBe(5);
    const [head, body] = r.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(head).toMatch(/^x-request-id: req_[0-9a-f]+$/m);
    expect(JSON.parse(body!)).toMatchObject({ error_code: 'REPORT_NOT_FOUND' });
  });

  it('prints a successful body that is not JSON as it came (exit 0)', async () => {
    await world.fault({ method: 'GET', path: '/v1/usage', status: 200, body: 'plain text, not JSON' });
    const r = await world.svc(['api', 'GET', 'usage']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('plain text, not JSON\n');
    expect(r.stderr).toBe('');
  });

  it('prints nothing for an empty 204 reply (exit 0)', async () => {
    await world.fault({ method: 'POST', path: '/v1/usage', status: 204, body: '' });
    const r = await world.svc(['api', 'POST', 'usage', '-i']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('HTTP/1.1 204 No Content');
    expect(r.stderr).toBe('');
  });
});
