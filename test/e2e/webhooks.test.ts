// Webhook deliveries end to end: svc mock sends them, `svc webhooks listen` receives and checks
// them. The CI story runs as a bash script would. `svc webhooks verify`, which checks one delivery
// offline, is tested in-process: test/commands/webhooks.test.ts.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../src/webhooks/signature.js';
import { baseEnv, SVC, useWorld, type Result } from './harness.js';

const world = useWorld();
const SECRET = 'whsec_e2e_listener_secret';
/** Children started by a test, killed after it if still running (a failed test leaves no listener behind). */
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  done: Promise<Result>;
}

/** Starts svc as a long-running child (listen, mock) with a clean environment; `perTest` ones end with their test. */
function start(args: string[], env: Record<string, string> = {}, perTest = true): Running {
  const child = spawn(process.execPath, [SVC, ...args], { env: { ...baseEnv(world.dir), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  if (perTest) children.push(child);
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<Result>((resolve) => child.on('close', (code) => resolve({ stdout, stderr, code })));
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

/** Polls (at most `ms`) until `read()` matches; the match, or a failure naming what was awaited. */
async function waitFor(read: () => string, pattern: RegExp, what: string, ms = 10_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = pattern.exec(read());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`waited for ${what}; got:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `svc webhooks listen` on a free port; resolves once it listens, with its address. */
async function listen(args: string[], env: Record<string, string> = {}): Promise<Running & { url: string }> {
  const running = start(['webhooks', 'listen', '--port', '0', ...args], env);
  const [, url] = await waitFor(running.stderr, /^Listening for webhook deliveries on (http:\/\/127\.0\.0\.1:\d+) /m, 'the listener');
  return { ...running, url: url! };
}

const event = (id = 'rpt_e8699f830adc84b8') => JSON.stringify({ event: 'report.ready', report_id: id, timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') });

function deliver(url: string, body: string, header: string | undefined) {
  return fetch(url + '/hooks', { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...(header && { 'X-Svc-Signature': header }) } });
}

describe('the CI story, as a bash script', () => {
  let mock: Running;
  let mockInfo: { url: string; keys: { key: string; mode: string; scope: string }[]; webhook_secret: string };
  let listenerPort: number;
  let bin: string;

  beforeAll(async () => {
    listenerPort = await freePort();
    mock = start(['mock', '--port', '0', '--json', '--webhook-url', `http://127.0.0.1:${listenerPort}/hooks`], {}, false);
    const [line] = await waitFor(mock.stdout, /^\{.*\}$/m, 'the mock');
    mockInfo = JSON.parse(line!);
    // `svc` on the PATH, as an installed one would be.
    bin = world.tempDir('svc-bin-');
    writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SVC)} "$@"\n`);
    chmodSync(join(bin, 'svc'), 0o755);
  });
  afterAll(() => {
    mock.child.kill('SIGINT');
    return mock.done;
  });

  function script(text: string, secret: string): Promise<Result & { dir: string }> {
    const dir = world.tempDir('svc-ci-');
    const testKey = mockInfo.keys.find((k) => k.mode === 'test' && k.scope === 'FULL')!.key;
    const env = { ...baseEnv(world.dir), PATH: `${bin}:${process.env.PATH}`, SVC_BASE_URL: mockInfo.url, SVC_API_KEY: testKey, PORT: String(listenerPort), SECRET: secret, DIR: dir, CI: 'true' };
    const child = spawn('bash', ['-c', text], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    return new Promise((resolve) => child.on('close', (code) => resolve({ stdout, stderr, code, dir })));
  }

  const CI_SCRIPT = `
    set -u
    id=$(svc sandbox create --quiet) || exit 20
    svc webhooks listen --port "$PORT" --exit-after 1 --wait 20 --secret "$SECRET" > "$DIR/events.txt" 2> "$DIR/listen.err" &
    listener=$!
    for i in $(seq 1 200); do grep -q '^Listening' "$DIR/listen.err" && break; sleep 0.05; done
    svc sandbox fire "$id" > "$DIR/fire.txt" || exit 21
    wait "$listener"
    echo "listener=$? id=$id"
  `;

  it('create, listen, fire: the listener verifies the delivery, prints the event and exits 0', async () => {
    const r = await script(CI_SCRIPT, mockInfo.webhook_secret);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [, code, id] = /^listener=(\d+) id=(rpt_[0-9a-f]+)$/m.exec(r.stdout) ?? [];
    expect(code, readFileSync(join(r.dir, 'listen.err'), 'utf8')).toBe('0');
    expect(readFileSync(join(r.dir, 'events.txt'), 'utf8')).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  report\\.ready  ${id}\\n$`));
    expect(readFileSync(join(r.dir, 'fire.txt'), 'utf8')).toContain(`report_id\t${id}`);
  });

  it('with the wrong secret the listener refuses the delivery and gives up after --wait (exit 9)', async () => {
    const r = await script(CI_SCRIPT.replace('--wait 20', '--wait 2'), 'whsec_not_the_mocks');
    expect(r.stdout, r.stderr).toMatch(/^listener=9 /m);
    expect(readFileSync(join(r.dir, 'events.txt'), 'utf8')).toBe('');
    const errors = readFileSync(join(r.dir, 'listen.err'), 'utf8');
    expect(errors).toMatch(/^warning: refused a delivery \(POST \/hooks\): the signature does not match the body and the secret$/m);
    expect(errors).toMatch(/^error: got 0 of 1 event within 2 s$/m);
  });
});

describe('webhooks listen', () => {
  it('answers 400 to a tampered body, a wrong secret or no signature, 200 to a valid delivery; counts only valid ones', async () => {
    const listener = await listen(['--secret', SECRET, '--exit-after', '1', '--wait', '20']);
    const body = event();
    const tampered = await deliver(listener.url, body.replace('report.ready', 'report.failed'), signatureHeader(SECRET, body));
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toEqual({ error: 'the signature does not match the body and the secret' });
    expect((await deliver(listener.url, body, signatureHeader('whsec_wrong', body))).status).toBe(400);
    expect((await deliver(listener.url, body, undefined)).status).toBe(400);
    const stale = Math.floor(Date.now() / 1000) - 301;
    expect((await deliver(listener.url, body, signatureHeader(SECRET, body, stale))).status).toBe(400);
    expect((await fetch(listener.url)).status).toBe(405);

    const valid = await deliver(listener.url, body, signatureHeader(SECRET, body));
    expect(valid.status).toBe(200);
    const r = await listener.done;
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/  report\.ready  rpt_e8699f830adc84b8$/)]);
    expect(r.stderr).toMatch(/refused a delivery \(POST \/hooks\): the signature does not match/);
    expect(r.stderr).toMatch(/refused a delivery \(POST \/hooks\): no X-Svc-Signature header/);
    expect(r.stderr).toMatch(/refused a delivery \(POST \/hooks\): stale: signed 30\d s ago/);
    expect(r.stderr).toMatch(/refused a delivery \(GET \/\): GET \/: deliveries are POST requests/);
  });

  it('--json prints each event as one compact object per line; the secret may come from SVC_WEBHOOK_SECRET', async () => {
    const listener = await listen(['--exit-after', '2', '--json'], { SVC_WEBHOOK_SECRET: SECRET });
    const bodies = [event('rpt_a'), JSON.stringify({ event: 'report.failed', report_id: 'rpt_b', timestamp: '2026-01-01T00:00:00Z', error_code: 'TAMPER_DETECTED' })];
    for (const body of bodies) expect((await deliver(listener.url, JSON.stringify(JSON.parse(body), null, 2), signatureHeader(SECRET, JSON.stringify(JSON.parse(body), null, 2)))).status).toBe(200);
    const r = await listener.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(bodies.map((b) => b + '\n').join(''));
  });

  it('--forward-to passes the same body and signature on', async () => {
    const forwarded: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const target = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        forwarded.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    try {
      const targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/local/hook`;
      const listener = await listen(['--secret', SECRET, '--exit-after', '1', '--forward-to', targetUrl]);
      const body = event();
      const header = signatureHeader(SECRET, body);
      expect((await deliver(listener.url, body, header)).status).toBe(200);
      const r = await listener.done;
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`forwarded to ${targetUrl}: 204`);
      expect(forwarded).toHaveLength(1);
      expect(forwarded[0]!.body.toString()).toBe(body);
      expect(forwarded[0]!.headers['x-svc-signature']).toBe(header);
      expect(verifySignature({ secret: SECRET, header, body: forwarded[0]!.body }).valid).toBe(true);
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it('a forward that fails is a warning; the delivery still counts', async () => {
    const listener = await listen(['--secret', SECRET, '--exit-after', '1', '--forward-to', `http://127.0.0.1:${await freePort()}/`]);
    const body = event();
    expect((await deliver(listener.url, body, signatureHeader(SECRET, body))).status).toBe(200);
    const r = await listener.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^warning: forwarding report\.ready to http:\/\/127\.0\.0\.1:\d+\/ failed: /m);
  });

  it.each([
    [['--exit-after', '1'], {}, /^error: no signing secret: pass --secret or set SVC_WEBHOOK_SECRET$/m],
    [['--secret', SECRET, '--wait', '5'], {}, /^error: --wait bounds the wait for --exit-after/m],
    [['--secret', SECRET, '--exit-after', '0'], {}, /^error: --exit-after takes a whole number/m],
    [['--secret', SECRET, '--port', '70000'], {}, /^error: --port takes a whole number/m],
    [['--secret', SECRET, '--forward-to', 'localhost:3000'], {}, /^error: --forward-to "localhost:3000" uses the scheme localhost:; use https/m],
  ])('refuses %j (exit 2)', async (args, env, message) => {
    const r = await world.bare(['webhooks', 'listen', ...args], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
