// `svc connect`: flags, checks before any request, output, --qr, --open, and the prompts at a real
// terminal (tmux).
import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
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

describe('svc connect with flags', () => {
  it('posts scopes and redirect_uri and prints the token and the connect URL', async () => {
    const r = await world.svc(['connect', '--scopes', 'identity,income', '--redirect-uri', REDIRECT]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    // The documented reply: the opaque token and `…/connect?token=…`.
    const token = /^request_token\t(creq_[0-9a-f]{24})$/m.exec(r.stdout)![1]!;
    const url = `${world.mock.url}/connect?token=${token}`;
    expect(r.stdout).toBe(`FIELD\tVALUE\nrequest_token\t${token}\nconnect_url\t${url}\n`);
    expect(await lastBody()).toEqual({ scopes: ['identity', 'income'], redirect_uri: REDIRECT });

    // The connect URL is served by the mock: what the end user's browser would open.
    const page = await fetch(url);
    expect(await page.json()).toMatchObject({ status: 'pending', scopes: ['identity', 'income'], redirect_uri: REDIRECT });
  });

  it('--scope may be repeated and mixed with --scopes; duplicates go', async () => {
    const r = await world.svc(['connect', '--scope', 'income', '--scopes', 'identity,income', '--redirect-uri', 'http://localhost:3000/callback']);
    expect(r.code, r.stderr).toBe(0);
    expect(await lastBody()).toEqual({ scopes: ['identity', 'income'], redirect_uri: 'http://localhost:3000/callback' });
  });

  it('--json prints the reply', async () => {
    const r = await world.svc(['connect', '--scope', 'identity', '--redirect-uri', 'http://127.0.0.1:8080/cb', '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(Object.keys(body)).toEqual(['request_token', 'connect_url']);
    expect(body.connect_url).toBe(`${world.mock.url}/connect?token=${body.request_token}`);
  });

  it.each([
    [[], /^error: missing --scopes and --redirect-uri \(svc asks only at a terminal, never in CI\)$/m],
    [['--scopes', 'identity'], /^error: missing --redirect-uri \(svc asks only at a terminal, never in CI\)$/m],
    [['--redirect-uri', REDIRECT], /^error: missing --scopes \(svc asks only at a terminal, never in CI\)$/m],
    [['--scopes', 'identity,wealth', '--redirect-uri', REDIRECT], /^error: unknown scope "wealth" \(the scopes are identity, income\)$/m],
    [['--scopes', ' , ', '--redirect-uri', REDIRECT], /^error: --scopes is empty/m],
    [['--scopes', 'identity', '--redirect-uri', 'http://app.example.com/cb'], /^error: --redirect-uri "http:\/\/app\.example\.com\/cb" uses http to app\.example\.com; use https/m],
    [['--scopes', 'identity', '--redirect-uri', '/connect/done'], /^error: --redirect-uri "\/connect\/done" is not an absolute URL/m],
    [['--scopes', 'identity', '--redirect-uri', 'ftp://example.com/x'], /is not an https URL/m],
    [['--scopes', 'identity', '--redirect-uri', 'https://example.com/x#frag'], /must not carry a #fragment/m],
  ])('refuses %j before any request (exit 2)', async (args, message) => {
    const r = await world.svc(['connect', ...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(await world.requests()).toEqual([]);
  });

  it('a READ_ONLY key may not start a flow (exit 4)', async () => {
    const r = await world.svc(['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT], { env: { SVC_API_KEY: world.key(0, 'test', 'READ_ONLY').key } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: INSUFFICIENT_SCOPE: /);
  });

  it('--qr draws the URL on stderr, leaving stdout to the reply', async () => {
    const r = await world.svc(['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--qr', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('connect_url');
    const rows = r.stderr.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((row) => /^[ ▀▄█]+$/.test(row))).toBe(true); // no colour escapes in a pipe
  });

  it('--open hands the URL to the browser', async () => {
    const dir = world.tempDir();
    const opened = join(dir, 'opened.txt');
    // xdg-open (used by the `open` package on Linux) starts $BROWSER with the URL.
    const browser = join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(opened)}\n`);
    chmodSync(browser, 0o755);
    const r = await world.svc(['connect', '--scopes', 'identity', '--redirect-uri', REDIRECT, '--open', '--json'], { env: { BROWSER: browser, DISPLAY: ':0' } });
    expect(r.code, r.stderr).toBe(0);
    const url = JSON.parse(r.stdout).connect_url;
    for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readFileSync(opened, 'utf8')).toBe(url);
  });
});

describe('svc connect at a terminal (tmux)', () => {
  const terminal = useTerminal();
  const env = () => ({ SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key, SVC_CONFIG_DIR: join(world.dir, 'config'), HOME: world.dir });

  it('asks for the scopes (checkbox) and the redirect URI, then starts the flow', async () => {
    const session = terminal.start(['connect'], env());
    await terminal.waitFor(session, (t) => /Scopes to ask the end user for/.test(t) && /income/.test(t), 'the scopes checkbox');
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
    await terminal.waitFor(session, (t) => /uses http to example\.com; use https/.test(t), 'the refusal');
    terminal.press(session, 'C-u'); // clear the line
    terminal.type(session, 'http://localhost:5173/done');
    terminal.press(session, 'Enter');
    const { code, screen } = await terminal.exit(session);
    expect(code, screen).toBe(0);
    expect(await lastBody()).toEqual({ scopes: ['income'], redirect_uri: 'http://localhost:5173/done' });
  });

  it('never asks when CI is set: exit 2 naming the flag', async () => {
    const session = terminal.start(['connect', '--scopes', 'identity'], { ...env(), CI: 'true' });
    const { code, screen } = await terminal.exit(session);
    expect(code).toBe(2);
    expect(screen).toMatch(/error: missing --redirect-uri \(svc asks only at a terminal, never in CI\)/);
    expect(await world.requests()).toEqual([]);
  });

  it('will not go on without a scope', async () => {
    const session = terminal.start(['connect', '--redirect-uri', REDIRECT], env());
    await terminal.waitFor(session, (t) => /Scopes to ask the end user for/.test(t), 'the scopes checkbox');
    terminal.press(session, 'Enter');
    await terminal.waitFor(session, (t) => /at least one/i.test(t), 'the refusal of no scope');
    terminal.press(session, 'Space', 'Enter');
    const { code, screen } = await terminal.exit(session);
    expect(code, screen).toBe(0);
    expect(await lastBody()).toEqual({ scopes: ['identity'], redirect_uri: REDIRECT });
  });
});
