// `svc connect` in-process, as a person at a terminal and as a script: the request body, the
// questions for what is missing, --open (only for an address a browser may be sent to) and --qr.
// The prompts in a real terminal and the real browser opener stay with the e2e tests.
import { describe, expect, it } from 'vitest';

import {
  BASE_URL,
  FakeService,
  plain,
  ScriptedPrompter,
  svc,
  unwrapped,
} from '../support/in-process.js';

const REDIRECT = 'https://app.example.com/connect/done';
const TOKEN = 'creq_0123456789abcdef01234567';
const CONNECT_URL = `${BASE_URL}/connect?token=${TOKEN}`;
const REPLY = { request_token: TOKEN, connect_url: CONNECT_URL };

/** A service that expects one Connect request with this body. */
function expecting(body: unknown, reply: unknown = REPLY, status = 200): FakeService {
  return new FakeService().expect(
    'POST',
    (r) => r.path === '/v1/connect/request' && JSON.stringify(r.json) === JSON.stringify(body),
    { status, body: reply },
  );
}

describe('svc connect as a script', () => {
  it('posts scopes and redirect_uri as JSON and prints the token and the connect URL, tab-separated', async () => {
    const result = await svc(
      ['connect', '--scopes', 'identity,income', '--redirect-uri', REDIRECT],
      { service: expecting({ scopes: ['identity', 'income'], redirect_uri: REDIRECT }) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      `FIELD\tVALUE\nrequest_token\t${TOKEN}\nconnect_url\t${CONNECT_URL}\n`,
    );
    const [request] = result.requests;
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('--scope may be repeated and mixed with --scopes; duplicates go; http to localhost is a redirect URI', async () => {
    // --scopes first, then each --scope, whatever their order on the command line.
    const result = await svc(
      [
        'connect',
        '--scope',
        'income',
        '--scopes',
        'identity,income',
        '--scope',
        'identity',
        '--redirect-uri',
        'http://localhost:3000/callback',
      ],
      {
        service: expecting({
          scopes: ['identity', 'income'],
          redirect_uri: 'http://localhost:3000/callback',
        }),
      },
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it('--json prints the reply as received', async () => {
    const reply = { request_token: TOKEN, connect_url: CONNECT_URL, expires_in: 900 };
    const result = await svc(
      ['connect', '--scope', 'identity', '--redirect-uri', 'http://127.0.0.1:8080/cb', '--json'],
      {
        service: expecting(
          { scopes: ['identity'], redirect_uri: 'http://127.0.0.1:8080/cb' },
          reply,
        ),
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(JSON.stringify(reply, null, 2) + '\n');
  });

  it.each([true, false])(
    '-o csv: one record, what the reply nests in dotted columns (tty: %s)',
    async (tty) => {
      const result = await svc(
        ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '-o', 'csv'],
        {
          tty,
          service: expecting(
            { scopes: ['identity'], redirect_uri: REDIRECT },
            { ...REPLY, expires: { in_seconds: 900 } },
          ),
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        `request_token,connect_url,expires.in_seconds\r\n${TOKEN},${CONNECT_URL},900\r\n`,
      );
    },
  );

  it('shows fields the service adds after the documented two', async () => {
    const result = await svc(['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT], {
      service: expecting(
        { scopes: ['identity'], redirect_uri: REDIRECT },
        { ...REPLY, expires_in: 900 },
      ),
    });
    expect(result.stdout).toMatch(/^expires_in\t900$/m);
  });

  it.each([
    [
      [],
      /^error: missing --scopes and --redirect-uri \(svc asks only at a terminal, never in CI\)$/m,
    ],
    [
      ['--scopes', 'identity'],
      /^error: missing --redirect-uri \(svc asks only at a terminal, never in CI\)$/m,
    ],
    [
      ['--redirect-uri', REDIRECT],
      /^error: missing --scopes \(svc asks only at a terminal, never in CI\)$/m,
    ],
    [
      ['--scopes', 'identity,wealth', '--redirect-uri', REDIRECT],
      /^error: unknown scope "wealth" \(the scopes are identity, income\)$/m,
    ],
    [['--scopes', ' , ', '--redirect-uri', REDIRECT], /^error: --scopes is empty/m],
    [
      ['--scopes', 'identity', '--redirect-uri', 'http://app.example.com/cb'],
      /^error: --redirect-uri "http:\/\/app\.example\.com\/cb" uses http to app\.example\.com; use https/m,
    ],
    [
      ['--scopes', 'identity', '--redirect-uri', '/connect/done'],
      /^error: --redirect-uri "\/connect\/done" is not an absolute URL/m,
    ],
    [
      ['--scopes', 'identity', '--redirect-uri', 'ftp://example.com/x'],
      /"ftp:\/\/example.com\/x" uses the scheme ftp:; use https/m,
    ],
    [
      ['--scopes', 'identity', '--redirect-uri', 'https://example.com/x#frag'],
      /must not carry a #fragment/m,
    ],
  ])('refuses %j before any request (exit 2)', async (args, message) => {
    // The fake service expects no request: one sent would fail the test.
    const result = await svc(['connect', ...args]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toMatch(message);
  });

  it('without a terminal, CI unset too: the missing flags are refused, not asked for', async () => {
    const prompter = new ScriptedPrompter([['identity'], REDIRECT]);
    const result = await svc(['connect'], { prompter, env: { CI: undefined } });
    expect(result.code).toBe(2);
    expect(unwrapped(result.stderr)).toMatch(
      /^error: missing --scopes and --redirect-uri \(svc asks only at a terminal, never in CI\)$/m,
    );
    expect(prompter.asked).toEqual([]);
  });

  it('the missing flags are named before the missing configuration', async () => {
    const result = await svc(['connect', '--scopes', 'identity'], {
      env: { SVC_BASE_URL: undefined },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: missing --redirect-uri/);
  });

  it('a key without the scope to start a flow: exit 4 with the error line', async () => {
    const denied = {
      error_type: 'PERMISSION_ERROR',
      error_code: 'INSUFFICIENT_SCOPE',
      error_message: 'This key is read-only.',
    };
    const result = await svc(['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT], {
      service: expecting({ scopes: ['identity'], redirect_uri: REDIRECT }, denied, 403),
    });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: INSUFFICIENT_SCOPE: This key is read-only\.$/m);
  });

  it('--qr draws the URL on stderr without colour, leaving stdout to the reply', async () => {
    const result = await svc(
      ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--qr', '--json'],
      { service: expecting({ scopes: ['identity'], redirect_uri: REDIRECT }) },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(REPLY);
    const rows = result.stderr.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((row) => /^[ ▀▄█]+$/.test(row))).toBe(true);
  });

  it('--open hands an https connect URL to the browser', async () => {
    const opened: string[] = [];
    const result = await svc(
      ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--open', '--json'],
      { opened, service: expecting({ scopes: ['identity'], redirect_uri: REDIRECT }) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(opened).toEqual([CONNECT_URL]);
    expect(result.stderr).toBe('Asked the browser to open the Connect URL.\n');
  });

  it('--open hands a loopback http connect URL to the browser', async () => {
    const opened: string[] = [];
    const local = 'http://127.0.0.1:4010/connect?token=x';
    const result = await svc(
      ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--open'],
      {
        opened,
        service: expecting(
          { scopes: ['identity'], redirect_uri: REDIRECT },
          { request_token: TOKEN, connect_url: local },
        ),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(opened).toEqual([local]);
  });

  it.each([
    [
      'http to another host',
      'http://connect.example.com/connect?token=x',
      /uses http to connect\.example\.com; use https/,
    ],
    ['a file', 'file:///etc/passwd', /"file:\/\/\/etc\/passwd" uses the scheme file:/],
    ['a script', 'javascript:alert(1)', /"javascript:alert\(1\)" uses the scheme javascript:/],
    ['no URL', 'connect here', /"connect here" is not an absolute URL/],
  ])(
    '--open refuses a connect_url that is %s (exit 10) and opens nothing',
    async (_what, url, message) => {
      const opened: string[] = [];
      const result = await svc(
        ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--open'],
        {
          opened,
          service: expecting(
            { scopes: ['identity'], redirect_uri: REDIRECT },
            { request_token: TOKEN, connect_url: url },
          ),
        },
      );
      expect(result.code).toBe(10);
      expect(opened).toEqual([]);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toMatch(
        /^error: refusing to open the connect_url of the reply: /,
      );
      expect(unwrapped(result.stderr)).toMatch(message);
    },
  );

  it('--qr refuses a connect_url a phone should not open (exit 10), drawing nothing', async () => {
    const result = await svc(
      ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--qr'],
      {
        service: expecting(
          { scopes: ['identity'], redirect_uri: REDIRECT },
          { request_token: TOKEN, connect_url: 'file:///etc/passwd' },
        ),
      },
    );
    expect(result.code).toBe(10);
    expect(result.stderr).not.toMatch(/[▀▄█]/);
  });

  it('without --open or --qr, any connect_url is only printed', async () => {
    const result = await svc(['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT], {
      service: expecting(
        { scopes: ['identity'], redirect_uri: REDIRECT },
        { request_token: TOKEN, connect_url: 'file:///etc/passwd' },
      ),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^connect_url\tfile:\/\/\/etc\/passwd$/m);
  });

  it('a browser that cannot be started is a warning: the address is printed anyway (exit 0)', async () => {
    // No `opened` list: the test's browser opener fails.
    const result = await svc(
      ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--open'],
      { service: expecting({ scopes: ['identity'], redirect_uri: REDIRECT }) },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(CONNECT_URL);
    expect(result.stderr).toBe(
      'warning: could not open a browser (no browser in this test); open the Connect URL yourself\n',
    );
  });
});

describe('svc connect at a terminal', () => {
  it('asks for the scopes and the redirect URI, then starts the flow', async () => {
    const prompter = new ScriptedPrompter([['identity', 'income'], REDIRECT]);
    const result = await svc(['connect'], {
      tty: true,
      prompter,
      service: expecting({ scopes: ['identity', 'income'], redirect_uri: REDIRECT }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked).toEqual([
      'Scopes to ask the end user for',
      'Redirect URI (where the flow returns)',
    ]);
    const screen = plain(result.stdout);
    expect(screen).toMatch(new RegExp(`Request token\\s.*${TOKEN}`));
    expect(screen).toContain(CONNECT_URL);
  });

  it('asks only for what is missing', async () => {
    const onlyRedirect = new ScriptedPrompter(['http://localhost:5173/done']);
    const a = await svc(['connect', '--scope', 'income'], {
      tty: true,
      prompter: onlyRedirect,
      service: expecting({ scopes: ['income'], redirect_uri: 'http://localhost:5173/done' }),
    });
    expect(a.code, a.stderr).toBe(0);
    expect(onlyRedirect.asked).toEqual(['Redirect URI (where the flow returns)']);

    const onlyScopes = new ScriptedPrompter([['identity']]);
    const b = await svc(['connect', '--redirect-uri', REDIRECT], {
      tty: true,
      prompter: onlyScopes,
      service: expecting({ scopes: ['identity'], redirect_uri: REDIRECT }),
    });
    expect(b.code, b.stderr).toBe(0);
    expect(onlyScopes.asked).toEqual(['Scopes to ask the end user for']);
  });

  it('asks nothing when both flags are given', async () => {
    const prompter = new ScriptedPrompter([]);
    const result = await svc(['connect', '--scopes', 'income', '--redirect-uri', REDIRECT], {
      tty: true,
      prompter,
      service: expecting({ scopes: ['income'], redirect_uri: REDIRECT }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked).toEqual([]);
  });

  it('the redirect URI question refuses what the flag refuses', async () => {
    const prompter = new ScriptedPrompter([['income'], 'http://example.com/cb']);
    const result = await svc(['connect'], { tty: true, prompter });
    expect(result.code).not.toBe(0);
    expect(unwrapped(result.stderr)).toMatch(
      /refused: "http:\/\/example\.com\/cb" uses http to example\.com; use https/,
    );
  });

  it('never asks when CI is set: exit 2 naming the flag', async () => {
    const prompter = new ScriptedPrompter([REDIRECT]);
    const result = await svc(['connect', '--scopes', 'identity'], {
      tty: true,
      prompter,
      env: { CI: 'true' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: missing --redirect-uri \(svc asks only at a terminal, never in CI\)$/m,
    );
    expect(prompter.asked).toEqual([]);
  });

  it('asks nothing when the request could not be sent anyway (no base URL): exit 2', async () => {
    const prompter = new ScriptedPrompter([['identity'], REDIRECT]);
    const result = await svc(['connect'], {
      tty: true,
      prompter,
      env: { SVC_BASE_URL: undefined },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no base URL configured/);
    expect(prompter.asked).toEqual([]);
  });

  it('a bad --redirect-uri is refused before any question', async () => {
    const prompter = new ScriptedPrompter([['identity']]);
    const result = await svc(['connect', '--redirect-uri', 'ftp://example.com/x'], {
      tty: true,
      prompter,
    });
    expect(result.code).toBe(2);
    expect(prompter.asked).toEqual([]);
  });

  it('--qr draws the code on stderr in colour at a terminal', async () => {
    const result = await svc(
      ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--qr'],
      { tty: true, service: expecting({ scopes: ['identity'], redirect_uri: REDIRECT }) },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\u001b\[/);
    expect(plain(result.stderr).trimEnd().split('\n').length).toBeGreaterThan(10);
    expect(plain(result.stdout)).toContain(CONNECT_URL);
    const noColor = await svc(
      ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--qr', '--no-color'],
      {
        tty: true,
        service: expecting({ scopes: ['identity'], redirect_uri: REDIRECT }),
      },
    );
    expect(noColor.stderr).not.toMatch(/\u001b\[/);
  });

  it('--open at a terminal opens the browser too', async () => {
    const opened: string[] = [];
    const result = await svc(
      ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--open'],
      { tty: true, opened, service: expecting({ scopes: ['identity'], redirect_uri: REDIRECT }) },
    );
    expect(result.code).toBe(0);
    expect(opened).toEqual([CONNECT_URL]);
  });
});
