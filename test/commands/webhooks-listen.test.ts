// `svc webhooks listen` in-process, as a person at a terminal and as a script, with its receiver on
// a real loopback port: what it prints of hostile deliveries, senders and forward targets, and
// that a forward target can neither hold it past --timeout nor feed it an endless reply.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { signatureHeader } from '../../src/webhooks/signature.js';
import {
  FakeService,
  type InProcessOptions,
  type InProcessResult,
  MODES,
  plain,
  STACK,
  svc,
  unwrapped,
} from '../support/in-process.js';
import {
  after,
  collectingGarbage,
  endlessTarget,
  freePort,
  listeningOn,
  peer,
  post,
  rawRequest,
  silentTarget,
} from '../support/peers.js';

const SECRET = 'whsec_inprocess_listener_secret';

/**
 * Escape sequences a terminal acts on: a clipboard write (OSC 52), a link (OSC 8), a cleared
 * screen.
 */
const OSC52 = '\u001b]52;c;cm0gLXJmIH4=\u0007';
const OSC8 = '\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\';
const CLEAR = '\u001b[2J';
/** The one-character CSI (C1) and a right-to-left override. */
const C1 = '\u009b31m';
const RLO = '\u202e';
const HOSTILE = `rpt_${OSC52}${OSC8}${CLEAR}${C1}${RLO}x`;

/**
 * What no line shown to a person or a script may hold once colours are taken out: controls but tab
 * and newline, and bidi controls.
 */
const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function eventBody(fields: Record<string, string>): string {
  return JSON.stringify({
    event: 'report.ready',
    report_id: 'rpt_e8699f830adc84b8',
    timestamp: now(),
    ...fields,
  });
}

/** Delivers `body` signed with the listener's secret; resolves with the status answered. */
function deliver(port: number, body: string, path = '/hooks'): Promise<number> {
  return post(`http://127.0.0.1:${port}${path}`, body, {
    'X-Svc-Signature': signatureHeader(SECRET, body),
  });
}

/**
 * Runs `svc webhooks listen --port P …` in-process with real waits, lets `drive` talk to it once it
 * listens, and resolves with the run's result.
 */
async function listen(
  args: string[],
  drive: (port: number) => Promise<void>,
  options: InProcessOptions = {},
): Promise<InProcessResult> {
  const port = await freePort();
  // A wide terminal: a person's stderr lines are wrapped at its width, and each warning is matched
  // whole.
  const run = svc(['webhooks', 'listen', '--port', String(port), ...args], {
    realWaits: true,
    columns: 400,
    env: { SVC_WEBHOOK_SECRET: SECRET },
    ...options,
  });
  await listeningOn(port);
  await drive(port);
  return run;
}

describe('webhooks listen at 60 columns', () => {
  it('an event line too long for the terminal goes on to the next line between its fields, none split (it was `T` / `AMPER_DETECTED`)', async () => {
    const result = await listen(
      ['--exit-after', '1'],
      async (port) => {
        expect(
          await deliver(
            port,
            eventBody({
              event: 'report.failed',
              timestamp: '2026-05-22T10:00:00Z',
              error_code: 'TAMPER_DETECTED',
            }),
          ),
        ).toBe(200);
      },
      { tty: true, columns: 60 },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(plain(result.stdout)).toBe(
      '2026-05-22T10:00:00Z  report.failed  rpt_e8699f830adc84b8\n  TAMPER_DETECTED\n',
    );
  });
});

describe.each(MODES)(
  'webhooks listen, for $mode: nothing a sender or a forward target sends acts on the terminal',
  ({ tty }) => {
    it('a signed event whose fields hold OSC 52, OSC 8, ESC[2J, C1 and bidi controls: the event line shows them inert', async () => {
      const result = await listen(
        ['--exit-after', '1'],
        async (port) => {
          expect(
            await deliver(
              port,
              eventBody({
                event: `report.ready${CLEAR}`,
                report_id: HOSTILE,
                error_code: `X${OSC52}`,
                timestamp: `2026${C1}`,
              }),
            ),
          ).toBe(200);
        },
        { tty },
      );
      expect(result.code, result.stderr).toBe(0);
      const line = plain(result.stdout);
      expect(line).not.toMatch(UNSAFE);
      expect(line.split('\n')).toHaveLength(2); // one event, one line
      expect(line).toContain('rpt_');
      expect(result.stderr).not.toMatch(UNSAFE);
    });

    it('a field that echoes the signing secret split by ESC[0m is masked, not shown with the ESC taken out', async () => {
      const split = `rpt_${SECRET.slice(0, 12)}\u001b[0m${SECRET.slice(12)}`;
      const result = await listen(
        ['--exit-after', '1'],
        async (port) => {
          expect(await deliver(port, eventBody({ report_id: split }))).toBe(200);
        },
        { tty },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('rpt_');
      expect(result.stdout).not.toContain(SECRET.slice(-8));
    });

    it('an unsigned sender cannot put a C1 control into the "refused a delivery" warning through the signature header', async () => {
      const result = await listen(
        ['--exit-after', '1'],
        async (port) => {
          // Header values are read as Latin-1: the byte 0x9B is U+009B, the one-character CSI.
          const request =
            'POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\nX-Svc-Signature: t=1,\u009b31mgarbage\r\n\r\n{}';
          expect(await rawRequest(port, Buffer.from(request, 'latin1'))).toBe(400);
          expect(await deliver(port, eventBody({}))).toBe(200);
        },
        { tty },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /^warning: refused a delivery \(POST \/hooks\): the signature header has a part without "=": ".*31mgarbage"$/m,
      );
      expect(result.stderr).not.toMatch(UNSAFE);
    });

    it('--json writes each event as one compact line whose C1 and bidi controls are \\u escapes: the same value, inert', async () => {
      const reportId = `rpt_${C1}${RLO}x${CLEAR}`;
      const result = await listen(
        ['--exit-after', '1', '--json'],
        async (port) => {
          expect(await deliver(port, eventBody({ report_id: reportId }))).toBe(200);
        },
        { tty },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(UNSAFE);
      expect(result.stdout).toContain('rpt_\\u009b31m\\u202ex\\u001b[2J');
      expect(result.stdout.split('\n')).toHaveLength(2);
      expect(JSON.parse(result.stdout).report_id).toBe(reportId);
    });

    it("a forward target's refusal and the forwarded event's name are shown inert in the warning", async () => {
      const target = await peer((req, res) =>
        req
          .resume()
          .on('end', () =>
            res
              .writeHead(500, { 'Content-Type': 'text/plain' })
              .end(`no${OSC52}${CLEAR}\nsecond line${RLO}`),
          ),
      );
      const result = await listen(
        ['--exit-after', '1', '--forward-to', target.url],
        async (port) => {
          expect(await deliver(port, eventBody({ event: `report.ready${OSC8}` }))).toBe(200);
        },
        { tty },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /^warning: http:\/\/127\.0\.0\.1:\d+\/hook answered 500 to the forwarded report\.ready.*: no.* second line/m,
      );
      expect(result.stderr).not.toMatch(UNSAFE);
      expect(plain(result.stdout)).not.toMatch(UNSAFE);
    });
  },
);

describe.each(MODES)(
  'webhooks listen --forward-to, for $mode: a password in the target is never shown',
  ({ tty }) => {
    it('the banner and the forwarding lines name the target as ***@host', async () => {
      const target = await peer((req, res) =>
        req.resume().on('end', () => res.writeHead(200).end()),
      );
      const withPassword = target.url.replace('http://', 'http://hook:hunter2secret@');
      const result = await listen(
        ['--exit-after', '1', '--forward-to', withPassword],
        async (port) => {
          expect(await deliver(port, eventBody({}))).toBe(200);
        },
        { tty },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /^Forwarding valid deliveries to http:\/\/\*\*\*@127\.0\.0\.1:\d+\/hook$/m,
      );
      expect(result.stderr).toMatch(
        /^ {2}forwarded to http:\/\/\*\*\*@127\.0\.0\.1:\d+\/hook: 200$/m,
      );
      expect(result.stdout + result.stderr).not.toContain('hunter2secret');
    });
  },
);

describe.each(MODES)(
  'webhooks listen --forward-to, for $mode: a target cannot hold the listener past --timeout',
  ({ tty }) => {
    it('a target that never answers: the forward fails after --timeout, garbage collections or not, and --exit-after ends the run', async () => {
      const target = await silentTarget();
      const gc = collectingGarbage();
      try {
        const run = listen(
          ['--exit-after', '1', '--forward-to', target.url, '--timeout', '0.5'],
          async (port) => {
            expect(await deliver(port, eventBody({}))).toBe(200);
          },
          { tty },
        );
        const result = await Promise.race([run, after(8000, undefined)]);
        expect(
          result,
          'listen still running 8 s after its forward should have timed out',
        ).toBeDefined();
        expect(result!.code, result!.stderr).toBe(0);
        expect(result!.stderr).toMatch(
          /^warning: forwarding report\.ready to http:\/\/127\.0\.0\.1:\d+\/hook failed: no answer within 0\.5 s$/m,
        );
        expect(result!.stderr).not.toMatch(STACK);
        expect(target.requests()).toBe(1);
      } finally {
        gc.stop();
      }
    });

    it('a target whose reply never ends: the listener reads a few bytes of it, says what it answered and ends', async () => {
      const target = await endlessTarget(503);
      const run = listen(
        ['--exit-after', '1', '--forward-to', target.url, '--timeout', '60'],
        async (port) => {
          expect(await deliver(port, eventBody({}))).toBe(200);
        },
        { tty },
      );
      const result = await Promise.race([run, after(8000, undefined)]);
      expect(result, 'listen still reading the endless reply after 8 s').toBeDefined();
      expect(result!.code, result!.stderr).toBe(0);
      expect(result!.stderr).toMatch(
        /^warning: http:\/\/127\.0\.0\.1:\d+\/hook answered 503 to the forwarded report\.ready: x+\[2Jx.*…$/m,
      );
      expect(result!.stderr).not.toMatch(UNSAFE);
      await target.closed;
      // Whatever the socket buffers took, far less than the target would have sent to a whole read.
      expect(target.sent()).toBeLessThan(16 * 1024 * 1024);
    });
  },
);

describe.each(MODES)('webhooks listen --secret, for $mode', ({ tty }) => {
  it('works, and warns as --api-key does that other users can see it, pointing to SVC_WEBHOOK_SECRET', async () => {
    const result = await listen(
      ['--exit-after', '1', '--secret', SECRET],
      async (port) => {
        expect(await deliver(port, eventBody({}))).toBe(200);
      },
      { tty, env: { SVC_WEBHOOK_SECRET: undefined } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(
      'warning: --secret is visible to other users of this machine; prefer SVC_WEBHOOK_SECRET',
    );
    expect(result.stderr).not.toContain(SECRET);
  });

  it('the secret from SVC_WEBHOOK_SECRET: no warning', async () => {
    const result = await listen(
      ['--exit-after', '1'],
      async (port) => {
        expect(await deliver(port, eventBody({}))).toBe(200);
      },
      { tty },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/warning/);
  });
});

/**
 * The base URL where svc mock is not running: the listener's registration (over the transport)
 * finds the connection refused.
 */
function mockDown(): FakeService {
  return new FakeService().expect('POST', '/_mock/webhooks/endpoints', () => {
    throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  });
}

describe.each(MODES)(
  'webhooks listen with no secret and svc mock down, for $mode: a network failure (exit 9), as for every command',
  ({ tty }) => {
    it('says it cannot reach svc mock to agree a secret, and what to do', async () => {
      const base = `http://127.0.0.1:${await freePort()}`;
      const result = await svc(['webhooks', 'listen', '--port', '0', '--exit-after', '1'], {
        tty,
        realWaits: true,
        columns: 400,
        env: { SVC_BASE_URL: base, SVC_WEBHOOK_SECRET: undefined },
        service: mockDown(),
      });
      expect(result.code, result.stderr).toBe(9);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toBe(
        `error: cannot reach svc mock at ${base} to agree a signing secret: ECONNREFUSED\n` +
          'Is svc mock running there? Start it with `svc mock`, or pass the secret of the endpoint that sends the deliveries (--secret or SVC_WEBHOOK_SECRET).\n',
      );
      expect(result.stderr).not.toMatch(STACK);
    });
  },
);

describe('webhooks listen --json with no secret and svc mock down, in a script', () => {
  it('the failure as one JSON line named NETWORK, exit 9', async () => {
    const base = `http://127.0.0.1:${await freePort()}`;
    const result = await svc(['webhooks', 'listen', '--port', '0', '--exit-after', '1', '--json'], {
      realWaits: true,
      env: { SVC_BASE_URL: base, SVC_WEBHOOK_SECRET: undefined },
      service: mockDown(),
    });
    expect(result.code).toBe(9);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({
      error_code: 'NETWORK',
      error_message: `cannot reach svc mock at ${base} to agree a signing secret: ECONNREFUSED`,
    });
  });
});

describe('webhooks listen --print-secret: the signing secret a listener verifies with, alone on stdout, and nothing else done', () => {
  /**
   * A base URL on this machine, where svc mock may run; SVC_DATA_DIR a folder of the test's own.
   */
  async function mockSide(): Promise<Record<string, string | undefined>> {
    return {
      SVC_BASE_URL: `http://127.0.0.1:${await freePort()}`,
      SVC_WEBHOOK_SECRET: undefined,
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-listener-secret-')),
    };
  }

  it('against svc mock with no secret given: the one svc keeps for its listeners, whole, the same at every run, kept 0600; no request sent', async () => {
    const env = await mockSide();
    const first = await svc(['webhooks', 'listen', '--print-secret'], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^whsec_[0-9a-f]{64}\n$/);
    const again = await svc(['webhooks', 'listen', '--print-secret', '--debug'], {
      env,
      tty: true,
    });
    expect(again).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    const file = join(env.SVC_DATA_DIR!, 'webhook-secret');
    expect(readFileSync(file, 'utf8')).toBe(first.stdout);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['SVC_WEBHOOK_SECRET', [], { SVC_WEBHOOK_SECRET: SECRET }],
    ['--secret', ['--secret', SECRET], { SVC_WEBHOOK_SECRET: undefined }],
  ])(
    'the secret given with %s: printed whole, though svc masks it in everything else it writes (--debug too)',
    async (_source, args, env) => {
      const result = await svc(['webhooks', 'listen', '--print-secret', '--debug', ...args], {
        env,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${SECRET}\n`);
      expect(result.stderr).not.toContain(SECRET);
    },
  );

  it('with no secret and a base URL that is not on this machine: exit 2, as listen, and nothing printed', async () => {
    const result = await svc(['webhooks', 'listen', '--print-secret'], {
      env: { SVC_WEBHOOK_SECRET: undefined },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: no signing secret: pass --secret or set SVC_WEBHOOK_SECRET\n/,
    );
  });

  it.each([
    ['--exit-after', '1'],
    ['--forward-to', 'http://127.0.0.1:3000/hooks'],
    ['--ready-file', 'listen.state'],
  ])('with %s, a flag of a listening run: exit 2 naming it', async (flag, value) => {
    const result = await svc(['webhooks', 'listen', '--print-secret', flag, value]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      `error: --print-secret prints the signing secret and exits: it takes no ${flag}\n`,
    );
  });

  it('with --jq: exit 2, the secret being no JSON (and a filter masking it)', async () => {
    const result = await svc(['webhooks', 'listen', '--print-secret', '--jq', '.'], {
      env: { SVC_WEBHOOK_SECRET: SECRET },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /--print-secret prints the signing secret alone: it takes no --jq/,
    );
  });

  it('a listener then run against svc mock brings that secret to its registration and takes deliveries signed with it', async () => {
    const env = await mockSide();
    const printed = (await svc(['webhooks', 'listen', '--print-secret'], { env })).stdout.trim();
    // svc mock signs a registered endpoint's deliveries with the secret it brought, and says so in
    // its reply.
    const mock = new FakeService()
      .expect('POST', '/_mock/webhooks/endpoints', (seen) => ({
        status: 201,
        headers: { 'x-svc-mock': '1' },
        body: {
          id: 'we_0123456789abcdef',
          url: (seen.json as { url: string }).url,
          secret: (seen.json as { secret: string }).secret,
        },
      }))
      .expect('DELETE', '/_mock/webhooks/endpoints/we_0123456789abcdef', {
        status: 204,
        headers: { 'x-svc-mock': '1' },
      });
    const port = await freePort();
    const run = svc(['webhooks', 'listen', '--port', String(port), '--exit-after', '1'], {
      env,
      realWaits: true,
      columns: 400,
      service: mock,
    });
    await listeningOn(port);
    const body = eventBody({});
    expect(
      await post(`http://127.0.0.1:${port}/hooks`, body, {
        'X-Svc-Signature': signatureHeader(printed, body),
      }),
    ).toBe(200);
    const result = await run;
    expect(result.code, result.stderr).toBe(0);
    expect(mock.seen[0]!.json).toMatchObject({ secret: printed });
    expect(result.stderr).toContain(
      `signed with the secret svc keeps for its listeners (svc webhooks listen --print-secret), …${printed.slice(-4)}\n`,
    );
    expect(result.stderr).not.toContain(printed);
  });
});
