// `svc connect` as a real process: one round trip against the mock (whose Connect page the URL
// opens), the mock's refusal of a READ_ONLY key, the real browser opener, and the prompts at a
// real terminal (tmux). The request body, the checks before any request, --json, --qr, --open's
// rules and the questions asked are tested in-process: test/commands/connect.test.ts.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useWorld } from './harness.js';
import { useTerminal } from './terminal.js';

const world = useWorld();
const REDIRECT = 'https://app.example.com/connect/done';

async function lastBody(): Promise<unknown> {
  const requests = await world.requests();
  expect(requests).toHaveLength(1);
  expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/connect/request' });
  return JSON.parse(requests[0]!.body!);
}

describe('svc connect against the mock', () => {
  it('posts scopes and redirect_uri and prints the token and the connect URL', async () => {
    const r = await world.svc([
      'connect',
      '--scopes',
      'identity,income',
      '--redirect-uri',
      REDIRECT,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    // The documented reply: the opaque token and `…/connect?token=…`.
    const token = /^request_token\t(creq_[0-9a-f]{24})$/m.exec(r.stdout)![1]!;
    const url = `${world.mock.url}/connect?token=${token}`;
    expect(r.stdout).toBe(`FIELD\tVALUE\nrequest_token\t${token}\nconnect_url\t${url}\n`);
    expect(await lastBody()).toEqual({ scopes: ['identity', 'income'], redirect_uri: REDIRECT });

    // The connect URL is served by the mock: what the end user's browser would open.
    const page = await fetch(url);
    expect(await page.json()).toMatchObject({
      status: 'pending',
      scopes: ['identity', 'income'],
      redirect_uri: REDIRECT,
    });
  });

  it('a READ_ONLY key may not start a flow (exit 4)', async () => {
    const r = await world.svc(['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT], {
      env: { SVC_API_KEY: world.key(0, 'test', 'READ_ONLY').key },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: INSUFFICIENT_SCOPE: /);
  });

  it('--open hands the URL to the browser', async () => {
    const dir = world.tempDir();
    const opened = join(dir, 'opened.txt');
    // xdg-open (used by the `open` package on Linux) starts $BROWSER with the URL.
    const browser = join(dir, 'browser.sh');
    const environment = join(dir, 'environment.txt');
    writeFileSync(
      browser,
      `#!/bin/sh\nenv > ${JSON.stringify(environment)}\nprintf '%s' "$1" > ${JSON.stringify(opened)}\n`,
    );
    chmodSync(browser, 0o755);
    const secrets = {
      SVC_ACCESS_TOKEN: 'cat_0123456789abcdef0123456789abcdef',
      SVC_CONSENT_TOKEN: 'cst_0123456789abcdef0123',
      SVC_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
    };
    const r = await world.svc(
      ['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--open', '--json'],
      { env: { BROWSER: browser, DISPLAY: ':0', ...secrets } },
    );
    expect(r.code, r.stderr).toBe(0);
    const url = JSON.parse(r.stdout).connect_url;
    for (let i = 0; i < 100 && !existsSync(opened); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readFileSync(opened, 'utf8')).toBe(url);
    // The browser's environment holds none of svc's variables: not the key, no token, no secret.
    const seen = readFileSync(environment, 'utf8');
    expect(seen).toMatch(/^DISPLAY=:0$/m);
    expect(seen).not.toMatch(/^SVC_/m);
    for (const value of [world.key().key, ...Object.values(secrets)])
      expect(seen).not.toContain(value);
  });
});

describe('svc connect at a terminal (tmux)', () => {
  const terminal = useTerminal();
  const env = () => ({
    SVC_BASE_URL: world.mock.url,
    SVC_API_KEY: world.key().key,
    SVC_CONFIG_DIR: join(world.dir, 'config'),
    HOME: world.dir,
  });

  it('asks for the scopes (checkbox) and the redirect URI, then starts the flow', async () => {
    const session = terminal.start(['connect'], env());
    await terminal.waitFor(
      session,
      (t) => /Scopes to ask the end user for/.test(t) && /income/.test(t),
      'the scopes checkbox',
    );
    terminal.press(session, 'Space'); // identity (the first choice)
    terminal.press(session, 'Down');
    terminal.press(session, 'Space'); // income
    terminal.press(session, 'Enter');
    await terminal.waitFor(session, (t) => /Redirect URI/.test(t), 'the redirect URI prompt');
    terminal.type(session, REDIRECT);
    terminal.press(session, 'Enter');
    const { code, screen } = await terminal.exit(session);
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/Request token\s+creq_[0-9a-f]{24}/);
    expect(await lastBody()).toEqual({ scopes: ['identity', 'income'], redirect_uri: REDIRECT });
  });

  it('asks only for what is missing, and re-asks for a redirect URI it refuses', async () => {
    const session = terminal.start(['connect', '--scope', 'income'], env());
    await terminal.waitFor(session, (t) => /Redirect URI/.test(t), 'the redirect URI prompt');
    expect(terminal.screen(session)).not.toMatch(/Scopes to ask/);
    terminal.type(session, 'http://example.com/cb');
    terminal.press(session, 'Enter');
    await terminal.waitFor(
      session,
      (t) => /uses http to example\.com; use https/.test(t),
      'the refusal',
    );
    terminal.press(session, 'C-u'); // clear the line
    terminal.type(session, 'http://localhost:5173/done');
    terminal.press(session, 'Enter');
    const { code, screen } = await terminal.exit(session);
    expect(code, screen).toBe(0);
    expect(await lastBody()).toEqual({
      scopes: ['income'],
      redirect_uri: 'http://localhost:5173/done',
    });
  });

  it('will not go on without a scope', async () => {
    const session = terminal.start(['connect', '--redirect-uri', REDIRECT], env());
    await terminal.waitFor(
      session,
      (t) => /Scopes to ask the end user for/.test(t),
      'the scopes checkbox',
    );
    terminal.press(session, 'Enter');
    await terminal.waitFor(session, (t) => /at least one/i.test(t), 'the refusal of no scope');
    terminal.press(session, 'Space', 'Enter');
    const { code, screen } = await terminal.exit(session);
    expect(code, screen).toBe(0);
    expect(await lastBody()).toEqual({ scopes: ['identity'], redirect_uri: REDIRECT });
  });
});
