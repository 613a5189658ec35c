// `svc webhooks verify` in-process, as a person at a terminal and as a script: valid, tampered,
// wrong secret, stale (on the test clock) and malformed deliveries, the body from --body FILE and
// from stdin. `webhooks listen` needs a real server and stays with the e2e tests.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { MAX_DELIVERY_BYTES } from '../../src/webhooks/events.js';
import { computeSignature, signatureHeader } from '../../src/webhooks/signature.js';
import {
  type InProcessOptions,
  type InProcessResult,
  MODES,
  NOW,
  scratchDir,
  STACK,
  svc,
  unwrapped,
} from '../support/in-process.js';
import { after } from '../support/peers.js';

const SECRET = 'whsec_inprocess_signing_secret';
/** The test clock in unix seconds. */
const T = Math.floor(NOW / 1000);
const BODY = JSON.stringify({
  event: 'report.ready',
  report_id: 'rpt_e8699f830adc84b8',
  timestamp: '2026-05-22T09:59:55Z',
});
/** Signed 5 s before the test clock. */
const HEADER = signatureHeader(SECRET, BODY, T - 5);

let files = 0;
function bodyFile(content: string | Buffer): string {
  const file = join(scratchDir(), `delivery-${++files}.json`);
  writeFileSync(file, content);
  return file;
}

const verify = (args: string[]) => ['webhooks', 'verify', ...args];

/**
 * Runs svc with the signing secret in SVC_WEBHOOK_SECRET, as the help advises (--secret warns that
 * `ps` shows it).
 */
function svcWith(
  secret: string,
  argv: string[],
  options: InProcessOptions = {},
): Promise<InProcessResult> {
  return svc(argv, { ...options, env: { SVC_WEBHOOK_SECRET: secret, ...options.env } });
}

describe('svc webhooks verify as a script', () => {
  it('a valid delivery from stdin: exit 0 and one line with when it was signed', async () => {
    const result = await svcWith(SECRET, verify(['--header', HEADER]), { stdin: BODY });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('valid: signed 2026-05-22T09:59:55Z, 5 s ago\n');
    expect(result.stderr).toBe('');
  });

  it('--body - reads stdin too', async () => {
    const result = await svcWith(SECRET, verify(['--header', HEADER, '--body', '-']), {
      stdin: BODY,
    });
    expect(result.code, result.stderr).toBe(0);
  });

  it('reads the body from a file, the whole header line, and the secret from SVC_WEBHOOK_SECRET; --json says so as an object', async () => {
    const result = await svc(
      verify(['--header', `X-Svc-Signature: ${HEADER}`, '--body', bodyFile(BODY), '--json']),
      { env: { SVC_WEBHOOK_SECRET: SECRET } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ valid: true, timestamp: T - 5, age_seconds: 5 });
  });

  it('takes the body byte for byte, binary included', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0xfe, 0x7d]);
    const result = await svcWith(
      SECRET,
      verify(['--header', signatureHeader(SECRET, bytes, T), '--body', bodyFile(bytes)]),
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it('accepts one of several v1 signatures (a sender rolling its secret)', async () => {
    const rolled = `t=${T - 5},v1=${computeSignature('whsec_old', T - 5, BODY)},v1=${computeSignature(SECRET, T - 5, BODY)}`;
    const result = await svcWith(SECRET, verify(['--header', rolled]), { stdin: BODY });
    expect(result.code, result.stderr).toBe(0);
  });

  it.each([
    [
      'a tampered body',
      BODY.replace('rpt_', 'rpt_x'),
      HEADER,
      SECRET,
      /the signature does not match the body and the secret/,
    ],
    ['a body with a newline added', BODY + '\n', HEADER, SECRET, /does not match/],
    ['the wrong secret', BODY, HEADER, 'whsec_wrong', /does not match/],
    [
      'a stale delivery',
      BODY,
      signatureHeader(SECRET, BODY, T - 3600),
      SECRET,
      /stale: signed 60 minutes ago, more than the 300 s allowed/,
    ],
    [
      'a delivery from the future',
      BODY,
      signatureHeader(SECRET, BODY, T + 301),
      SECRET,
      /signed 301 s in the future/,
    ],
    ['a malformed header', BODY, 'v1=abc', SECRET, /the signature header has no timestamp \(t=…\)/],
    ['a header without a signature', BODY, `t=${T}`, SECRET, /has no v1 signature/],
    [
      'a header with a bad timestamp',
      BODY,
      't=soon,v1=abc',
      SECRET,
      /the timestamp t="soon" is not a whole number of seconds/,
    ],
    ['a header part without "="', BODY, `t=${T},garbage`, SECRET, /a part without "="/],
    ['a v1 that is not hex', BODY, `t=${T},v1=zz`, SECRET, /does not match/],
  ])('%s: exit 6 with one line saying why', async (_what, input, header, secret, reason) => {
    const result = await svcWith(secret, verify(['--header', header, '--body', '-']), {
      stdin: input,
    });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    const lines = unwrapped(result.stderr).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: invalid delivery: /);
    expect(lines[0]).toMatch(reason);
    expect(result.stderr).not.toContain(secret);
  });

  it('--json on an invalid delivery: the verdict on stdout as an object, exit 6', async () => {
    const result = await svcWith('whsec_wrong', verify(['--header', HEADER, '--json']), {
      stdin: BODY,
    });
    expect(result.code).toBe(6);
    expect(JSON.parse(result.stdout)).toEqual({
      valid: false,
      reason: 'the signature does not match the body and the secret',
    });
  });

  describe('on the test clock', () => {
    const signedAt = T;
    const header = signatureHeader(SECRET, BODY, signedAt);

    it('300 s after signing a delivery is still valid', async () => {
      const result = await svcWith(SECRET, verify(['--header', header]), {
        stdin: BODY,
        now: NOW + 300_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('valid: signed 2026-05-22T10:00:00Z, 300 s ago\n');
    });

    it('301 s after signing it is stale', async () => {
      const result = await svcWith(SECRET, verify(['--header', header]), {
        stdin: BODY,
        now: NOW + 301_000,
      });
      expect(result.code).toBe(6);
      expect(result.stderr).toBe(
        'error: invalid delivery: stale: signed 301 s ago, more than the 300 s allowed\n',
      );
    });
  });

  it.each([
    [['--header', HEADER], /^error: no signing secret: pass --secret or set SVC_WEBHOOK_SECRET$/m],
    [['--secret', '', '--header', HEADER], /^error: no signing secret/m],
    [['--secret', SECRET], /^error: missing --header: the X-Svc-Signature header of the delivery/m],
    [['--secret', SECRET, '--header', '  '], /^error: missing --header/m],
    [
      ['--secret', SECRET, '--header', HEADER, '--body', '/nonexistent/delivery.json'],
      /^error: cannot read --body \/nonexistent\/delivery\.json: no such file/m,
    ],
  ])('refuses %j (exit 2)', async (args, message) => {
    const result = await svc(verify(args), { stdin: BODY });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it('a body larger than a delivery may be (4 MiB), from stdin: exit 2', async () => {
    const result = await svcWith(SECRET, verify(['--header', HEADER]), {
      stdin: 'x'.repeat(MAX_DELIVERY_BYTES + 1),
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: --body stdin is larger than 4 MiB, the most a delivery may be\n',
    );
  });

  it('needs no API key, base URL or config', async () => {
    const result = await svcWith(SECRET, verify(['--header', HEADER]), {
      stdin: BODY,
      env: { SVC_API_KEY: undefined, SVC_BASE_URL: undefined },
    });
    expect(result.code, result.stderr).toBe(0);
  });
});

describe('svc webhooks verify at a terminal', () => {
  it('a valid delivery from --body FILE', async () => {
    const result = await svcWith(SECRET, verify(['--header', HEADER, '--body', bodyFile(BODY)]), {
      tty: true,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('valid: signed 2026-05-22T09:59:55Z, 5 s ago\n');
  });

  it('an invalid one: exit 6 and the reason', async () => {
    const result = await svcWith(
      'whsec_wrong',
      verify(['--header', HEADER, '--body', bodyFile(BODY)]),
      { tty: true },
    );
    expect(result.code).toBe(6);
    expect(result.stderr).toBe(
      'error: invalid delivery: the signature does not match the body and the secret\n',
    );
  });

  it.each([[[]], [['--body', '-']]])(
    'with %j and stdin a terminal: exit 2 asking for --body FILE, not waiting for typing',
    async (args) => {
      const result = await svcWith(SECRET, verify(['--header', HEADER, ...args]), { tty: true });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'error: no body: pass --body FILE, or pipe the body in with --body -\n',
      );
    },
  );

  it('the secret never shows, not even in the error of a wrong one', async () => {
    const result = await svc(verify(['--header', HEADER, '--body', bodyFile(BODY)]), {
      tty: true,
      env: { SVC_WEBHOOK_SECRET: 'whsec_a_secret_of_some_length' },
    });
    expect(result.code).toBe(6);
    expect(result.stderr).not.toContain('whsec_a_secret_of_some_length');
  });
});

describe.each(MODES)('svc webhooks verify bounds what it reads, for $mode', ({ tty }) => {
  /** A named pipe nobody writes to: opening it to read waits for ever. */
  function endlessBody(): string {
    const fifo = join(scratchDir(), `endless-${++files}.fifo`);
    execFileSync('mkfifo', [fifo]);
    return fifo;
  }
  /** Lets a reader still waiting on the pipe go (it then reads an empty body). */
  function release(fifo: string): void {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // nobody is reading it: nothing to release
    }
  }

  it.each([
    [
      'a stale header',
      signatureHeader(SECRET, BODY, T - 3600),
      /^error: invalid delivery: stale: signed 60 minutes ago/,
    ],
    [
      'a header from the future',
      signatureHeader(SECRET, BODY, T + 3600),
      /^error: invalid delivery: signed 60 minutes in the future/,
    ],
    [
      'a malformed header',
      'v1=abc',
      /^error: invalid delivery: the signature header has no timestamp/,
    ],
  ])('%s is refused (exit 6) before a byte of the body is read', async (_what, header, message) => {
    const fifo = endlessBody();
    try {
      const result = await Promise.race([
        svcWith(SECRET, verify(['--header', header, '--body', fifo]), { tty }),
        after(8000, undefined),
      ]);
      expect(result, 'still reading the body after 8 s').toBeDefined();
      expect(result!.code).toBe(6);
      expect(result!.stdout).toBe('');
      expect(result!.stderr).toMatch(message);
    } finally {
      release(fifo);
    }
  });

  it('a body larger than a delivery may be (4 MiB), from a file: exit 2, read no further', async () => {
    const file = bodyFile('');
    truncateSync(file, MAX_DELIVERY_BYTES + 1);
    const result = await svcWith(SECRET, verify(['--header', HEADER, '--body', file]), { tty });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      `error: --body ${file} is larger than 4 MiB, the most a delivery may be\n`,
    );
  });

  it('a body as large as a delivery may be is verified', async () => {
    const body = Buffer.alloc(MAX_DELIVERY_BYTES, 'x');
    const result = await svcWith(
      SECRET,
      verify(['--header', signatureHeader(SECRET, body, T - 5), '--body', bodyFile(body)]),
      { tty },
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it('a header holding control characters: the reason shows them inert, on stderr and in --json', async () => {
    const header = `t=${T},\u009b31m\u202egarbage\u001b[2J`;
    const result = await svcWith(
      SECRET,
      verify(['--header', header, '--body', bodyFile(BODY), '--json']),
      { tty },
    );
    expect(result.code).toBe(6);
    const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;
    expect(result.stdout).not.toMatch(unsafe);
    expect(result.stderr).not.toMatch(unsafe);
    expect(JSON.parse(result.stdout)).toEqual({
      valid: false,
      reason: 'the signature header has a part without "=": "31mgarbage[2J"',
    });
    expect(result.stderr).not.toMatch(STACK);
  });
});

describe.each(MODES)('svc webhooks verify --secret, for $mode', ({ tty }) => {
  it('works, and warns as --api-key does that other users can see it, pointing to SVC_WEBHOOK_SECRET', async () => {
    // Wide enough that a person's warning is one line.
    const result = await svc(
      verify(['--secret', SECRET, '--header', HEADER, '--body', bodyFile(BODY)]),
      { tty, columns: 200 },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('valid: signed 2026-05-22T09:59:55Z, 5 s ago\n');
    expect(result.stderr).toBe(
      'warning: --secret is visible to other users of this machine; prefer SVC_WEBHOOK_SECRET\n',
    );
    expect(result.stderr).not.toContain(SECRET);
  });

  it('the secret from SVC_WEBHOOK_SECRET: no warning', async () => {
    const result = await svcWith(SECRET, verify(['--header', HEADER, '--body', bodyFile(BODY)]), {
      tty,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('a usage error is the only line: no warning before it', async () => {
    const result = await svc(verify(['--secret', SECRET, '--body', bodyFile(BODY)]), { tty });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: missing --header: [^\n]*\n$/);
  });
});
