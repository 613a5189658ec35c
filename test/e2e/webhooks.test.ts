// Webhook deliveries end to end: svc mock sends them, `svc webhooks listen` receives and checks
// them. The local loop (mock, listen, fire: listen registers itself with the mock) and the
// --webhook-url story run as a bash script would. `svc webhooks verify`, which checks one delivery
// offline, is tested in-process: test/commands/webhooks.test.ts.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { signatureHeader, verifySignature } from '../../src/webhooks/signature.js';
import { mockAdminJson, testKeyOf } from '../support/mock-admin.js';
import { unwrapped } from '../support/unwrapped.js';
import { baseEnv, type Result, SVC, useWorld } from './harness.js';

const world = useWorld();
const SECRET = 'whsec_e2e_listener_secret';
/**
 * Children started by a test, killed after it if still running (a failed test leaves no listener
 * behind).
 */
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

/**
 * Starts svc as a long-running child (listen, mock) with a clean environment; `perTest` ones end
 * with their test.
 */
function start(args: string[], env: Record<string, string> = {}, perTest = true): Running {
  const child = spawn(process.execPath, [SVC, ...args], {
    env: { ...baseEnv(world.dir), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (perTest) children.push(child);
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<Result>((resolve) =>
    child.on('close', (code) => resolve({ stdout, stderr, code })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

/** Polls (at most `ms`) until `read()` matches; the match, or a failure naming what was awaited. */
async function waitFor(
  read: () => string,
  pattern: RegExp,
  what: string,
  ms = 10_000,
): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = pattern.exec(read());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`waited for ${what}; got:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `svc webhooks listen` on a free port; resolves once it listens, with its address. */
async function listen(
  args: string[],
  env: Record<string, string> = {},
): Promise<Running & { url: string }> {
  const running = start(['webhooks', 'listen', '--port', '0', ...args], env);
  const [, url] = await waitFor(
    running.stderr,
    /^Listening for webhook deliveries on (http:\/\/127\.0\.0\.1:\d+) /m,
    'the listener',
  );
  return { ...running, url: url! };
}

const event = (id = 'rpt_e8699f830adc84b8') =>
  JSON.stringify({
    event: 'report.ready',
    report_id: id,
    timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });

function deliver(url: string, body: string, header: string | undefined) {
  return fetch(url + '/hooks', {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', ...(header && { 'X-Svc-Signature': header }) },
  });
}

/** `svc` on the PATH, as an installed one would be. */
function binDir(): string {
  const bin = world.tempDir('svc-bin-');
  writeFileSync(
    join(bin, 'svc'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SVC)} "$@"\n`,
  );
  chmodSync(join(bin, 'svc'), 0o755);
  return bin;
}

interface MockInfo {
  url: string;
  keys: { key: string; mode: string; scope: string }[];
  webhook_secret: string;
}

/** `svc mock --port 0 --json` as a child, kept for the describe block; resolves once it listens. */
async function startMock(args: string[] = []): Promise<Running & { info: MockInfo }> {
  const mock = start(['mock', '--port', '0', '--json', ...args], {}, false);
  const [line] = await waitFor(mock.stdout, /^\{.*\}$/m, 'the mock');
  return { ...mock, info: JSON.parse(line) as MockInfo };
}

/** The addresses the mock delivers to at the moment, of those its test key registered. */
function endpointsOf(mock: MockInfo): Promise<{ id: string | null; url: string }[]> {
  return mockAdminJson(mock, '/_mock/webhooks/endpoints');
}

/**
 * Runs a bash script with svc on the PATH, the mock as base URL and its test key; DIR is a fresh
 * folder.
 */
function bash(
  text: string,
  mock: MockInfo,
  env: Record<string, string> = {},
): Promise<Result & { dir: string }> {
  const dir = world.tempDir('svc-ci-');
  const vars = {
    ...baseEnv(world.dir),
    PATH: `${bin}:${process.env.PATH}`,
    SVC_BASE_URL: mock.url,
    SVC_API_KEY: testKeyOf(mock),
    DIR: dir,
    CI: 'true',
    ...env,
  };
  const child = spawn('bash', ['-c', text], { env: vars, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ stdout, stderr, code, dir })),
  );
}

let bin: string;
beforeAll(() => {
  bin = binDir();
});

const read = (dir: string, name: string) => readFileSync(join(dir, name), 'utf8');

describe('the local loop, as docs/guides/webhooks-and-ci.md tells it: svc mock, svc webhooks listen, svc sandbox fire, no extra flag', () => {
  let mock: Running & { info: MockInfo };
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => {
    mock.child.kill('SIGINT');
    return mock.done;
  });

  /** listen in the background (LISTEN_ARGS added), fire once it listens, wait for it. */
  const LOOP = `
    set -u
    id=$(svc sandbox create --quiet) || exit 20
    svc webhooks listen --port 0 --exit-after 1 --wait 20 --ready-file "$DIR/listen" \${LISTEN_ARGS:-} > "$DIR/events.txt" 2> "$DIR/listen.err" &
    listener=$!
    svc ready "$DIR/listen" --wait 20 > /dev/null || exit 22
    svc sandbox fire "$id" > "$DIR/fire.txt" || exit 21
    wait "$listener"
    echo "listener=$? id=$id"
  `;

  it('listen registers with the mock, bringing the secret svc keeps for its listeners; the fired event arrives, is printed, and listen exits 0 after 1', async () => {
    const r = await bash(LOOP, mock.info);
    expect(r.stderr).toBe(''); // no warning from fire: the event went somewhere
    expect(r.code).toBe(0);
    const [, code, id] = /^listener=(\d+) id=(rpt_[0-9a-f]+)$/m.exec(r.stdout) ?? [];
    const listenErr = read(r.dir, 'listen.err');
    expect(code, listenErr).toBe('0');
    expect(read(r.dir, 'events.txt')).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  report\\.ready  ${id}\\n$`),
    );

    const [, endpointId, secretTail] =
      /^Registered with svc mock at http:\/\/127\.0\.0\.1:\d+ as (we_[0-9a-f]{16}): events fired there come here, signed with the secret svc keeps for its listeners \(svc webhooks listen --print-secret\), …([0-9a-f]{4})$/m.exec(
        listenErr,
      ) ?? [];
    expect(endpointId, listenErr).toBeDefined();
    // The secret svc keeps in its data folder, which only its user can read; not the mock's own
    // secret, which its --json line and banner show: no other caller of the mock can sign for this
    // listener.
    const kept = readFileSync(join(world.dir, 'data', 'webhook-secret'), 'utf8').trim();
    expect(kept.slice(-4)).toBe(secretTail);
    expect(listenErr + mock.stderr()).not.toContain(kept);
    expect(listenErr + mock.stderr()).not.toContain(mock.info.webhook_secret);
    const [, port] =
      /^Listening for webhook deliveries on http:\/\/127\.0\.0\.1:(\d+) \(any path\)$/m.exec(
        listenErr,
      ) ?? [];

    // fire says where the mock delivers it; the mock logs the delivery, then the listener's
    // goodbye.
    const listenerUrl = `http://127.0.0.1:${port}/`;
    expect(read(r.dir, 'fire.txt')).toContain(`report_id\t${id}\n`);
    expect(read(r.dir, 'fire.txt')).toContain(`delivered_to\t${listenerUrl}\n`);
    await waitFor(
      mock.stderr,
      new RegExp(`^webhook endpoint ${endpointId} unregistered: ${listenerUrl}$`, 'm'),
      'the listener to unregister',
    );
    expect(mock.stderr()).toContain(
      `webhook endpoint ${endpointId} registered: ${listenerUrl} (signed with the secret it brought)\n`,
    );
    expect(mock.stderr()).toContain(`delivered report.ready for ${id} to ${listenerUrl} → 200\n`);
    expect(await endpointsOf(mock.info)).toEqual([]);
  });

  it('a job that forwards to its own app: the app is given `listen --print-secret`, and verifies what the listener forwards', async () => {
    // The job's app: takes a delivery whose signature checks with the secret it was given.
    const verified: string[] = [];
    let appSecret = '';
    const app = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const check = verifySignature({
          secret: appSecret,
          header: String(req.headers['x-svc-signature']),
          body,
        });
        if (check.valid) verified.push((JSON.parse(body) as { report_id: string }).report_id);
        res.writeHead(check.valid ? 200 : 400).end();
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    try {
      const appUrl = `http://127.0.0.1:${(app.address() as { port: number }).port}/webhooks`;
      const printed = await bash('svc webhooks listen --print-secret', mock.info);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stderr).toBe('');
      appSecret = printed.stdout.trim();
      expect(appSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
      const r = await bash(LOOP, mock.info, { LISTEN_ARGS: `--forward-to ${appUrl}` });
      expect(r.code, read(r.dir, 'listen.err')).toBe(0);
      const [, code, id] = /^listener=(\d+) id=(rpt_[0-9a-f]+)$/m.exec(r.stdout) ?? [];
      expect(code, read(r.dir, 'listen.err')).toBe('0');
      expect(verified).toEqual([id]);
      expect(read(r.dir, 'listen.err')).toContain(`  forwarded to ${appUrl}: 200\n`);
    } finally {
      await new Promise((resolve) => app.close(resolve));
    }
  });

  it('with no listener running, fire says on stderr that the event went to no endpoint (exit 0); so does the mock', async () => {
    expect(await endpointsOf(mock.info)).toEqual([]);
    const r = await bash(
      'id=$(svc sandbox create --quiet) && svc sandbox fire "$id" --json && echo "id=$id" >&2',
      mock.info,
    );
    expect(r.code, r.stderr).toBe(0);
    const id = /^id=(rpt_[0-9a-f]+)$/m.exec(r.stderr)![1]!;
    expect(JSON.parse(r.stdout)).toEqual({
      fired: 'report.ready',
      report_id: id,
      environment: 'test',
      delivered_to: [],
    });
    expect(r.stderr).toMatch(
      /^warning: the service delivered this event to no endpoint: start `svc webhooks listen` with the same base URL first/m,
    );
    await waitFor(
      mock.stderr,
      new RegExp(`^fired report\\.ready for ${id} to no endpoint: `, 'm'),
      "the mock's note",
    );
  });

  it("listen --secret: the mock signs this listener's deliveries with that secret, so it verifies them", async () => {
    const r = await bash(LOOP, mock.info, { LISTEN_ARGS: '--secret whsec_a_secret_of_my_own' });
    expect(r.stderr).toBe('');
    const listenErr = read(r.dir, 'listen.err');
    expect(r.stdout, listenErr).toMatch(/^listener=0 /m);
    expect(read(r.dir, 'events.txt')).toMatch(/  report\.ready  rpt_[0-9a-f]+\n$/);
    expect(listenErr).toMatch(
      /: events fired there come here, signed with your secret \(--secret\)$/m,
    );
    expect(listenErr).not.toContain('whsec_a_secret_of_my_own');
  });

  it("listen without one of the mock's keys is not registered; with no secret of its own it stops (exit 3), blaming the key", async () => {
    for (const key of [undefined, 'svc_sk_test_00000000000000000000000000000000']) {
      const r = await world.bare(
        ['webhooks', 'listen', '--port', '0', '--exit-after', '1', '--wait', '1'],
        { env: { SVC_BASE_URL: mock.info.url, SVC_API_KEY: key } },
      );
      expect(r.code).toBe(3);
      const said =
        key === undefined
          ? 'answers only one of its keys, and no key is configured'
          : 'does not know the key in force';
      expect(unwrapped(r.stderr)).toContain(`error: svc mock at ${mock.info.url} ${said}\n`);
      expect(r.stderr).toMatch(/^Use one of the keys its banner lists/m);
    }
    expect(await endpointsOf(mock.info)).toEqual([]);
  });

  it('Ctrl-C ends a plain listen (exit 0) and unregisters it: the mock delivers there no more', async () => {
    const listener = await listen([], {
      SVC_BASE_URL: mock.info.url,
      SVC_API_KEY: testKeyOf(mock.info),
    });
    expect((await endpointsOf(mock.info)).map((e) => e.url)).toEqual([`${listener.url}/`]);
    listener.child.kill('SIGINT');
    const r = await listener.done;
    expect(r.code, r.stderr).toBe(0);
    expect(await endpointsOf(mock.info)).toEqual([]);
  });

  it('a registered listener still refuses a delivery signed with another secret; after --wait it exits 9 and unregisters', async () => {
    const listener = await listen(['--exit-after', '1', '--wait', '2'], {
      SVC_BASE_URL: mock.info.url,
      SVC_API_KEY: testKeyOf(mock.info),
    });
    const body = event();
    expect(
      (await deliver(listener.url, body, signatureHeader('whsec_not_the_mocks', body))).status,
    ).toBe(400);
    const r = await listener.done;
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(
      /^warning: refused a delivery \(POST \/hooks\): the signature does not match the body and the secret$/m,
    );
    expect(await endpointsOf(mock.info)).toEqual([]);
  });
});

describe("svc mock --webhook-url, for a receiver that does not register (CI, another machine's tunnel)", () => {
  let mock: Running & { info: MockInfo };
  let listenerPort: number;
  beforeAll(async () => {
    listenerPort = await freePort();
    mock = await startMock(['--webhook-url', `http://127.0.0.1:${listenerPort}/hooks`]);
  });
  afterAll(() => {
    mock.child.kill('SIGINT');
    return mock.done;
  });

  // The listener has no base URL, so it registers nowhere: only --webhook-url brings it events.
  const CI_SCRIPT = `
    set -u
    id=$(svc sandbox create --quiet) || exit 20
    SVC_BASE_URL= svc webhooks listen --port "$PORT" --exit-after 1 --wait \${WAIT:-20} --secret "$SECRET" --ready-file "$DIR/listen" > "$DIR/events.txt" 2> "$DIR/listen.err" &
    listener=$!
    svc ready "$DIR/listen" --wait 20 > /dev/null || exit 22
    svc sandbox fire "$id" > "$DIR/fire.txt" || exit 21
    wait "$listener"
    echo "listener=$? id=$id"
  `;

  it('create, listen, fire: the listener verifies the delivery with the secret the mock printed, prints the event and exits 0', async () => {
    const r = await bash(CI_SCRIPT, mock.info, {
      PORT: String(listenerPort),
      SECRET: mock.info.webhook_secret,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [, code, id] = /^listener=(\d+) id=(rpt_[0-9a-f]+)$/m.exec(r.stdout) ?? [];
    expect(code, read(r.dir, 'listen.err')).toBe('0');
    expect(read(r.dir, 'listen.err')).not.toMatch(/Registered|not registered/);
    expect(read(r.dir, 'events.txt')).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  report\\.ready  ${id}\\n$`),
    );
    expect(read(r.dir, 'fire.txt')).toContain(`report_id\t${id}`);
    expect(read(r.dir, 'fire.txt')).toContain(
      `delivered_to\thttp://127.0.0.1:${listenerPort}/hooks\n`,
    );
    await waitFor(
      mock.stderr,
      new RegExp(
        `^delivered report\\.ready for ${id} to http://127\\.0\\.0\\.1:${listenerPort}/hooks → 200$`,
        'm',
      ),
      'the delivery log',
    );
  });

  it('with the wrong secret the listener refuses the delivery and gives up after --wait (exit 9)', async () => {
    const r = await bash(CI_SCRIPT, mock.info, {
      PORT: String(listenerPort),
      SECRET: 'whsec_not_the_mocks',
      WAIT: '2',
    });
    expect(r.stdout, r.stderr).toMatch(/^listener=9 /m);
    expect(read(r.dir, 'events.txt')).toBe('');
    const errors = read(r.dir, 'listen.err');
    expect(errors).toMatch(
      /^warning: refused a delivery \(POST \/hooks\): the signature does not match the body and the secret$/m,
    );
    expect(errors).toMatch(/^error: got 0 of 1 event within 2 s$/m);
  });
});

describe('webhooks listen with a base URL on this machine that is not svc mock', () => {
  it('a server without the mock routes (404): with a secret listen goes on as before, registering nowhere and saying nothing', async () => {
    const requests: string[] = [];
    const other = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      req
        .resume()
        .on('end', () =>
          res
            .writeHead(404, { 'Content-Type': 'application/json' })
            .end('{"error_code":"NOT_FOUND","error_message":"No such route."}'),
        );
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
      const listener = await listen(['--exit-after', '1'], {
        SVC_BASE_URL: base,
        SVC_WEBHOOK_SECRET: SECRET,
      });
      const body = event();
      expect((await deliver(listener.url, body, signatureHeader(SECRET, body))).status).toBe(200);
      const r = await listener.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/warning|Registered/);
      expect(requests).toEqual(['POST /_mock/webhooks/endpoints']);

      const bare = await world.bare(['webhooks', 'listen', '--port', '0', '--exit-after', '1'], {
        env: { SVC_BASE_URL: base },
      });
      expect(bare.code).toBe(2);
      expect(unwrapped(bare.stderr)).toMatch(
        /^error: no signing secret: pass --secret or set SVC_WEBHOOK_SECRET$/m,
      );
      expect(unwrapped(bare.stderr)).toContain(
        `${base} is not svc mock, the only service that agrees a signing secret with a listener.`,
      );
      expect(unwrapped(bare.stderr)).toContain(
        'The service signs deliveries with the signing secret of the webhook endpoint they go to',
      );
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('nothing answering there: with --secret a warning (restart once the mock runs); without, exit 9 (the service cannot be reached) saying why', async () => {
    const base = `http://127.0.0.1:${await freePort()}`;
    const listener = await listen(['--secret', SECRET, '--exit-after', '1'], {
      SVC_BASE_URL: base,
    });
    expect(listener.stderr()).toMatch(
      new RegExp(
        `^warning: not registered with svc mock: nothing answered at ${base.replace(/\./g, '\\.')} \\(ECONNREFUSED\\); if svc mock starts there, restart this listener`,
        'm',
      ),
    );
    listener.child.kill('SIGINT');
    await listener.done;

    const bare = await world.bare(['webhooks', 'listen', '--port', '0'], {
      env: { SVC_BASE_URL: base },
    });
    expect(bare.code).toBe(9);
    expect(bare.stdout).toBe('');
    expect(unwrapped(bare.stderr)).toMatch(
      new RegExp(
        `^error: cannot reach svc mock at ${base.replace(/\./g, '\\.')} to agree a signing secret: ECONNREFUSED$`,
        'm',
      ),
    );
  });

  it('a base URL on another machine is never asked: the listener address stays here', async () => {
    const r = await world.bare(
      [
        'webhooks',
        'listen',
        '--port',
        '0',
        '--exit-after',
        '1',
        '--wait',
        '1',
        '--secret',
        SECRET,
        '--debug',
      ],
      { env: { SVC_BASE_URL: 'https://api.example.com' } },
    );
    expect(r.code).toBe(9);
    expect(r.stderr).not.toContain('_mock');
  });
});

describe('webhooks listen', () => {
  it('answers 400 to a tampered body, a wrong secret or no signature, 200 to a valid delivery; counts only valid ones', async () => {
    const listener = await listen(['--secret', SECRET, '--exit-after', '1', '--wait', '20']);
    const body = event();
    const tampered = await deliver(
      listener.url,
      body.replace('report.ready', 'report.failed'),
      signatureHeader(SECRET, body),
    );
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toEqual({
      error: 'the signature does not match the body and the secret',
    });
    expect((await deliver(listener.url, body, signatureHeader('whsec_wrong', body))).status).toBe(
      400,
    );
    expect((await deliver(listener.url, body, undefined)).status).toBe(400);
    const stale = Math.floor(Date.now() / 1000) - 301;
    expect((await deliver(listener.url, body, signatureHeader(SECRET, body, stale))).status).toBe(
      400,
    );
    expect((await fetch(listener.url)).status).toBe(405);

    const valid = await deliver(listener.url, body, signatureHeader(SECRET, body));
    expect(valid.status).toBe(200);
    const r = await listener.done;
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/  report\.ready  rpt_e8699f830adc84b8$/),
    ]);
    expect(r.stderr).toMatch(/refused a delivery \(POST \/hooks\): the signature does not match/);
    expect(r.stderr).toMatch(/refused a delivery \(POST \/hooks\): no X-Svc-Signature header/);
    expect(r.stderr).toMatch(/refused a delivery \(POST \/hooks\): stale: signed 30\d s ago/);
    expect(r.stderr).toMatch(/refused a delivery \(GET \/\): GET \/: deliveries are POST requests/);
  });

  it('--json prints each event as one compact object per line; the secret may come from SVC_WEBHOOK_SECRET', async () => {
    const listener = await listen(['--exit-after', '2', '--json'], { SVC_WEBHOOK_SECRET: SECRET });
    const bodies = [
      event('rpt_a'),
      JSON.stringify({
        event: 'report.failed',
        report_id: 'rpt_b',
        timestamp: '2026-01-01T00:00:00Z',
        error_code: 'TAMPER_DETECTED',
      }),
    ];
    for (const body of bodies)
      expect(
        (
          await deliver(
            listener.url,
            JSON.stringify(JSON.parse(body), null, 2),
            signatureHeader(SECRET, JSON.stringify(JSON.parse(body), null, 2)),
          )
        ).status,
      ).toBe(200);
    const r = await listener.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(bodies.map((b) => b + '\n').join(''));
  });

  it('--forward-to passes the same body and signature on', async () => {
    const forwarded: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const target = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => {
          forwarded.push({ headers: req.headers, body: Buffer.concat(chunks) });
          res.writeHead(204).end();
        });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    try {
      const targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/local/hook`;
      const listener = await listen([
        '--secret',
        SECRET,
        '--exit-after',
        '1',
        '--forward-to',
        targetUrl,
      ]);
      const body = event();
      const header = signatureHeader(SECRET, body);
      expect((await deliver(listener.url, body, header)).status).toBe(200);
      const r = await listener.done;
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`forwarded to ${targetUrl}: 204`);
      expect(forwarded).toHaveLength(1);
      expect(forwarded[0]!.body.toString()).toBe(body);
      expect(forwarded[0]!.headers['x-svc-signature']).toBe(header);
      expect(verifySignature({ secret: SECRET, header, body: forwarded[0]!.body }).valid).toBe(
        true,
      );
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it('a forward that fails is a warning; the delivery still counts', async () => {
    const listener = await listen([
      '--secret',
      SECRET,
      '--exit-after',
      '1',
      '--forward-to',
      `http://127.0.0.1:${await freePort()}/`,
    ]);
    const body = event();
    expect((await deliver(listener.url, body, signatureHeader(SECRET, body))).status).toBe(200);
    const r = await listener.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: forwarding report\.ready to http:\/\/127\.0\.0\.1:\d+\/ failed: /m,
    );
  });

  it.each([
    [
      ['--exit-after', '1'],
      {},
      /^error: no signing secret: pass --secret or set SVC_WEBHOOK_SECRET$/m,
    ],
    [['--secret', SECRET, '--wait', '5'], {}, /^error: --wait bounds the wait for --exit-after/m],
    [['--secret', SECRET, '--exit-after', '0'], {}, /^error: --exit-after takes a whole number/m],
    [['--secret', SECRET, '--port', '70000'], {}, /^error: --port takes a whole number/m],
    [
      ['--secret', SECRET, '--forward-to', 'localhost:3000'],
      {},
      /^error: --forward-to "localhost:3000" uses the scheme localhost:; use https/m,
    ],
  ])('refuses %j (exit 2)', async (args, env, message) => {
    const r = await world.bare(['webhooks', 'listen', ...args], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
