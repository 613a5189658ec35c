// `svc parse FILE` in-process, as a person at a terminal and as a script: the multipart upload,
// --async, --wait polling the poll_url on the test clock (the waits are recorded, no time passes),
// the --wait-timeout limit, a failed report, the file checks made before any request, the exit code
// of each API failure, and replies of another shape.
import { chmodSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { envelope, expectRefused } from '../support/errors.js';
import { documented } from '../support/fixtures.js';
import {
  expectFailure,
  type FakeReply,
  FakeService,
  type InProcessResult,
  KEY,
  MODES,
  plain,
  scratchDir,
  type SeenRequest,
  svc,
  unwrapped,
  UUID,
} from '../support/in-process.js';

/** The documented full report: a synchronous parse answers it (200). */
const REPORT = documented('report');
/** The documented 202 of an asynchronous parse: only `poll_url` is shown. */
const ACCEPTED = documented('parse-async');
const ERROR_FLAT = documented('error-flat');
const ID = 'cl_abc123';
const POLL = '/v1/reports/cl_abc123';
const PROCESSING = {
  report_id: ID,
  status: 'processing',
  bank_code: 'NABIL',
  created_at: '2026-05-22T10:00:00Z',
};
const FAILED = {
  report_id: ID,
  status: 'failed',
  bank_code: 'NABIL',
  created_at: '2026-05-22T10:00:00Z',
  error: {
    error_code: 'DOCUMENT_PARSE_FAILED',
    error_message: 'The document could not be parsed.',
  },
};

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n', 'latin1');
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9,
]);
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
  0xff,
]);
const MAX = 20 * 1024 * 1024;

let files: string;
let count = 0;
beforeAll(() => {
  files = join(scratchDir(), 'statements');
  mkdirSync(files, { recursive: true });
});

/** A file of the test's own in the scratch folder. */
function file(name: string, content: string | Buffer = PDF): string {
  const dir = join(files, String(++count));
  mkdirSync(dir);
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/**
 * The parts of a multipart/form-data body, read from its bytes with the boundary of its
 * Content-Type.
 */
function multipartOf(request: SeenRequest): Part[] {
  const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(
    request.headers['content-type'] ?? '',
  )?.[1];
  if (!boundary) throw new Error(`not multipart: ${request.headers['content-type']}`);
  const body = request.bytes!;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  expect(at).toBe(0);
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') {
      expect(body.subarray(start).toString()).toBe('--\r\n');
      return parts;
    }
    expect(body.subarray(start, start + 2).toString()).toBe('\r\n');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), start);
    const headerEnd = body.indexOf('\r\n\r\n', start);
    const headers = body.subarray(start + 2, headerEnd).toString('utf8');
    const disposition =
      /^Content-Disposition: form-data; name="([^"]*)"(?:; filename="([^"]*)")?$/m.exec(headers)!;
    const type = /^Content-Type: (.+)$/m.exec(headers)?.[1];
    parts.push({
      name: disposition[1]!,
      filename: disposition[2],
      contentType: type,
      data: body.subarray(headerEnd + 4, next),
    });
    at = next + 2;
  }
}

function fields(request: SeenRequest): Record<string, string> {
  return Object.fromEntries(
    multipartOf(request)
      .filter((p) => p.filename === undefined)
      .map((p) => [p.name, p.data.toString('utf8')]),
  );
}

/**
 * What the spinner of a person's terminal leaves in a test's stderr (no terminal to clear it): the
 * frames and their text.
 */
/** A failure of a command that may draw a spinner on stderr. */
const expectFailureOf = (result: InProcessResult, exit: number, firstLine: string | RegExp) =>
  expectFailure(result, exit, firstLine, withoutSpinner);

function withoutSpinner(stderr: string): string {
  return stderr.replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (Uploading|Parsing) [^…\n]*…( \d+ s)?/g, '');
}

const upload = (reply: FakeReply) => new FakeService().expect('POST', '/v1/parse', reply);

describe('svc parse FILE: the upload', () => {
  it('POSTs /v1/parse as multipart: bank (default auto), async false, and the file with its name, type and bytes', async () => {
    const path = file('statement.pdf');
    const result = await svc(['parse', path, '--json'], { service: upload({ body: REPORT }) });
    expect(result.code, result.stderr).toBe(0);
    const [request] = result.requests;
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers.accept).toBe('application/json');
    expect(request!.headers['idempotency-key']).toMatch(UUID);
    expect(request!.headers['content-type']).toMatch(
      /^multipart\/form-data; boundary=svc-[0-9a-f]{24}$/,
    );
    const parts = multipartOf(request!);
    expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ['bank', undefined, undefined],
      ['async', undefined, undefined],
      ['file', 'statement.pdf', 'application/pdf'],
    ]);
    expect(fields(request!)).toEqual({ bank: 'auto', async: 'false' });
    expect(parts[2]!.data.equals(PDF)).toBe(true);
  });

  it('sends --bank as given', async () => {
    const result = await svc(['parse', file('s.pdf'), '--bank', 'NIC_ASIA', '--json'], {
      service: upload({ body: REPORT }),
    });
    expect(result.code).toBe(0);
    expect(fields(result.requests[0]!)).toEqual({ bank: 'NIC_ASIA', async: 'false' });
  });

  it.each([
    ['scan.jpg', JPEG, 'image/jpeg'],
    ['scan.png', PNG, 'image/png'],
    ['NO-EXTENSION', PDF, 'application/pdf'],
  ])('judges %s by its first bytes and sends them unchanged', async (name, bytes, type) => {
    const result = await svc(['parse', file(name, bytes), '--json'], {
      service: upload({ body: REPORT }),
    });
    expect(result.code, result.stderr).toBe(0);
    const part = multipartOf(result.requests[0]!).find((p) => p.name === 'file')!;
    expect(part.contentType).toBe(type);
    expect(part.filename).toBe(name);
    expect(part.data.equals(bytes)).toBe(true);
  });

  it('a file name with a quote or a line break cannot break the part header', async () => {
    const result = await svc(['parse', file('a"b\nc.pdf'), '--json'], {
      service: upload({ body: REPORT }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(multipartOf(result.requests[0]!).find((p) => p.name === 'file')!.filename).toBe(
      'a%22b%0Ac.pdf',
    );
  });

  it('takes a file of exactly 20 MB', async () => {
    const path = file('big.pdf');
    truncateSync(path, MAX);
    const result = await svc(['parse', path, '--json'], { service: upload({ body: REPORT }) });
    expect(result.code, result.stderr).toBe(0);
    expect(multipartOf(result.requests[0]!).find((p) => p.name === 'file')!.data.length).toBe(MAX);
  });
});

describe('svc parse FILE: the parsed report', () => {
  it('gives a script the report as FIELD/VALUE lines, and nothing on stderr', async () => {
    const result = await svc(['parse', file('s.pdf')], { service: upload({ body: REPORT }) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').slice(0, 11)).toEqual([
      'FIELD\tVALUE',
      'report_id\tcl_abc123',
      'status\tcomplete',
      'bank\tNabil Bank (NABIL)',
      'period\t2026-01-01 → 2026-03-31',
      'opening_balance\t73200',
      'closing_balance\t145200',
      'transactions\t12',
      'created_at\t2026-05-27 10:23 UTC',
      'data_source\tPARSED_STATEMENT',
      'tamper_verifiable\tyes',
    ]);
    expect(result.stdout).not.toMatch(/\u001b\[/);
  });

  it('shows a person the report, with a spinner on stderr while it uploads', async () => {
    const result = await svc(['parse', file('statement.pdf')], {
      tty: true,
      service: upload({ body: REPORT }),
    });
    expect(result.code).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).toMatch(/^Report +cl_abc123$/m);
    expect(screen).toMatch(/^Bank +Nabil Bank \(NABIL\)$/m);
    expect(screen).toMatch(/^Closing balance +NPR 1,45,200\.00$/m);
    expect(screen).toContain(
      '1 transactions in this reply: -o csv or -o ndjson writes them one per line.',
    );
    expect(result.stderr).toContain('Uploading statement.pdf…');
    expect(withoutSpinner(result.stderr)).toBe('');
  });

  it.each(MODES)('--json prints the body exactly as received, for $mode', async ({ tty }) => {
    const raw = JSON.stringify(REPORT).replace(
      '"opening_balance":73200',
      '"opening_balance":73200.00',
    );
    const result = await svc(['parse', file('s.pdf'), '--json'], { tty, service: upload({ raw }) });
    expect(result.code).toBe(0);
    expect(plain(result.stdout)).toContain('"opening_balance": 73200.00');
    expect(JSON.parse(plain(result.stdout))).toEqual(JSON.parse(raw));
    expect(plain(result.stdout)).toBe(
      JSON.stringify(JSON.parse(raw), null, 2).replace(
        '"opening_balance": 73200',
        '"opening_balance": 73200.00',
      ) + '\n',
    );
  });

  it.each(MODES)(
    '-o ndjson and -o csv write the report’s transactions, for $mode',
    async ({ tty }) => {
      const ndjson = await svc(['parse', file('s.pdf'), '-o', 'ndjson'], {
        tty,
        service: upload({ body: REPORT }),
      });
      expect(ndjson.stdout).toBe(
        (REPORT.transactions as unknown[]).map((t) => JSON.stringify(t)).join('\n') + '\n',
      );
      const csv = await svc(['parse', file('s.pdf'), '-o', 'csv'], {
        tty,
        service: upload({ body: REPORT }),
      });
      expect(csv.stdout.split('\r\n')[0]).toBe(
        'date,description,debit,credit,balance,category,merchant,merchantTerminal,mcc,merchantCategory',
      );
      expect(csv.stdout.split('\r\n')).toHaveLength(3);
    },
  );

  it.each([
    ['a list', [1, 2], /^value\t1, 2$/m],
    ['a text', 'queued', /^value\tqueued$/m],
  ])('a reply that is %s is shown, not refused', async (_what, body, line) => {
    const result = await svc(['parse', file('s.pdf')], { service: upload({ body }) });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(line);
  });

  it('a body that is not JSON is exit 10', async () => {
    const result = await svc(['parse', file('s.pdf')], {
      service: upload({ raw: '<html>', headers: { 'content-type': 'text/html' } }),
    });
    expectFailureOf(
      result,
      10,
      'error: POST /v1/parse answered 200 with a body that is not JSON: "<html>"',
    );
  });
});

describe('svc parse FILE --async', () => {
  it('sends async=true and prints the 202 body exactly as received with --json', async () => {
    const result = await svc(['parse', file('s.pdf'), '--async', '--json'], {
      service: upload({ status: 202, body: ACCEPTED }),
    });
    expect(result.code).toBe(0);
    expect(fields(result.requests[0]!)).toEqual({ bank: 'auto', async: 'true' });
    expect(result.stdout).toBe(JSON.stringify(ACCEPTED, null, 2) + '\n');
    expect(result.waits).toEqual([]);
  });

  it('gives a script the report, status and poll URL as FIELD/VALUE lines, blank where the reply has none', async () => {
    const script = await svc(['parse', file('s.pdf'), '--async'], {
      service: upload({ status: 202, body: ACCEPTED }),
    });
    expect(script.code).toBe(0);
    expect(script.stderr).toBe('');
    expect(script.stdout).toBe(
      'FIELD\tVALUE\nreport_id\t\nstatus\t\npoll_url\t/v1/reports/cl_abc123\n',
    );
    const full = await svc(['parse', file('s.pdf'), '--async'], {
      service: upload({
        status: 202,
        body: { report_id: ID, status: 'processing', poll_url: POLL, eta_seconds: 20 },
      }),
    });
    expect(full.stdout).toBe(
      'FIELD\tVALUE\nreport_id\tcl_abc123\nstatus\tprocessing\npoll_url\t/v1/reports/cl_abc123\neta_seconds\t20\n',
    );
  });

  it.each(MODES)(
    '-o csv: the 202 body as one record, what it nests in dotted columns, for $mode',
    async ({ tty }) => {
      const body = { report_id: ID, status: 'processing', poll_url: POLL, links: { poll: POLL } };
      const result = await svc(['parse', file('s.pdf'), '--async', '-o', 'csv'], {
        tty,
        service: upload({ status: 202, body }),
      });
      expect(result.code).toBe(0);
      // A person sees the upload's spinner on stderr; a script, nothing.
      if (tty) expect(result.stderr).toMatch(/^\S+ Uploading s\.pdf…/);
      else expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        `report_id,status,poll_url,links.poll\r\n${ID},processing,${POLL},${POLL}\r\n`,
      );
    },
  );

  it('tells a person how to follow the report: by its id, else by its poll URL', async () => {
    const withId = await svc(['parse', file('s.pdf'), '--async'], {
      tty: true,
      service: upload({
        status: 202,
        body: { report_id: ID, status: 'processing', poll_url: POLL },
      }),
    });
    expect(plain(withId.stdout)).toBe(
      [
        'Report    cl_abc123',
        'Status    processing',
        'Poll URL  /v1/reports/cl_abc123',
        'Parsing in the background. Follow it with: svc reports get cl_abc123',
      ].join('\n') + '\n',
    );
    expect(withId.stdout).toContain('\u001b[33mprocessing\u001b[39m');
    const pollOnly = await svc(['parse', file('s.pdf'), '--async'], {
      tty: true,
      service: upload({ status: 202, body: ACCEPTED }),
    });
    expect(plain(pollOnly.stdout)).toBe(
      'Poll URL  /v1/reports/cl_abc123\nParsing in the background. Follow it with: svc api GET /v1/reports/cl_abc123\n',
    );
  });

  it.each(MODES)(
    'with --wait too is refused before any request (exit 2), for $mode',
    async ({ tty }) => {
      for (const flags of [
        ['--async', '--wait'],
        ['--wait', '--async', '--json'],
        ['--async', '--wait', '--wait-timeout', '5'],
      ]) {
        const result = await svc(['parse', file('s.pdf'), ...flags], { tty });
        const message =
          /^(error: )?--async returns at once and --wait waits for the report: give one of them, not both$/;
        // With --json, a usage error is one JSON line on a script's stderr (a person reads the
        // line).
        if (flags.includes('--json') && !tty)
          expect(JSON.parse(result.stderr)).toMatchObject({
            error_code: 'USAGE',
            error_message: expect.stringMatching(message),
          });
        else expectRefused(result, message, withoutSpinner);
        expect(result.waits).toEqual([]);
      }
      // Before the file is even read: a missing one is not what is reported.
      expectRefused(
        await svc(['parse', join(files, 'missing.pdf'), '--async', '--wait'], { tty }),
        /--async .* --wait/,
        withoutSpinner,
      );
    },
  );
});

/** A service that accepts the upload in the background, then answers the polls in turn. */
/**
 * What a person reads on stderr once the upload of the documented 202 (a poll_url alone) is
 * accepted.
 */
const UPLOADED =
  'Uploaded: report cl_abc123 is being parsed. To look at it later:\n  svc reports get cl_abc123\n';

function polled(accepted: unknown, polls: FakeReply[], path = POLL): FakeService {
  const service = new FakeService().expect('POST', '/v1/parse', { status: 202, body: accepted });
  for (const reply of polls) service.expect('GET', path, reply);
  return service;
}

describe('svc parse FILE --wait', () => {
  it('uploads in the background, then polls the poll_url, waiting 1 s, 1.5 s, 2.25 s … between polls', async () => {
    const service = polled(ACCEPTED, [
      { body: PROCESSING },
      { body: PROCESSING },
      { body: PROCESSING },
      { body: REPORT },
    ]);
    const result = await svc(['parse', file('s.pdf'), '--wait', '--json'], { service });
    expect(result.code, result.stderr).toBe(0);
    expect(fields(result.requests[0]!).async).toBe('true');
    expect(result.requests.map((r) => `${r.method} ${r.url.href}`)).toEqual([
      'POST https://svc.test/v1/parse',
      ...Array(4).fill('GET https://svc.test/v1/reports/cl_abc123'),
    ]);
    // The polls are GETs: no body, no idempotency key.
    for (const poll of result.requests.slice(1)) {
      expect(poll.body).toBeUndefined();
      expect(poll.headers).not.toHaveProperty('idempotency-key');
      expect(poll.headers.authorization).toBe(`Bearer ${KEY}`);
    }
    expect(result.waits).toEqual([1000, 1500, 2250]);
    // The final report, exactly as received.
    expect(JSON.parse(result.stdout)).toEqual(REPORT);
    expect(result.stderr).toBe('');
  });

  it('a poll whose reply never comes, the request not hearing its time limit (a connection closed before it could say so), costs one --timeout: the poll is sent again', async () => {
    // The second poll's reply is lost: its transport never settles, whatever the abort.
    const lost = () => new Promise<FakeReply>(() => {});
    const service = new FakeService()
      .expect('POST', '/v1/parse', { status: 202, body: ACCEPTED })
      .expect('GET', POLL, { body: PROCESSING })
      .expect('GET', POLL, lost)
      .expect('GET', POLL, { body: REPORT });
    const result = await svc(['parse', file('s.pdf'), '--wait', '--json', '--timeout', '0.1'], {
      service,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(REPORT);
    expect(result.stderr).toBe('');
    // The poll interval, then the retry's backoff after the lost poll.
    expect(result.waits).toEqual([1000, 375]);
  }, 5_000);

  it('waits at most 5 s between polls', async () => {
    const service = polled(ACCEPTED, [...Array(7).fill({ body: PROCESSING }), { body: REPORT }]);
    const result = await svc(['parse', file('s.pdf'), '--wait', '--json'], { service });
    expect(result.code).toBe(0);
    expect(result.waits).toEqual([1000, 1500, 2250, 3375, 5000, 5000, 5000]);
  });

  it('a report complete at the first poll needs no wait', async () => {
    const result = await svc(['parse', file('s.pdf'), '--wait'], {
      service: polled(ACCEPTED, [{ body: REPORT }]),
    });
    expect(result.code).toBe(0);
    expect(result.waits).toEqual([]);
    expect(result.stdout).toMatch(/^status\tcomplete$/m);
  });

  it('shows a person the final report, and the spinner names the report while it waits', async () => {
    const result = await svc(['parse', file('s.pdf'), '--wait'], {
      tty: true,
      service: polled(ACCEPTED, [{ body: PROCESSING }, { body: REPORT }]),
    });
    expect(result.code).toBe(0);
    expect(plain(result.stdout)).toMatch(/^Status +complete$/m);
    expect(result.stderr).toContain('Parsing cl_abc123…');
    expect(withoutSpinner(result.stderr)).toBe(UPLOADED);
    expect(result.waits).toEqual([1000]);
  });

  it('tells a person the report id and how to look at it later as soon as the upload is accepted, before the wait', async () => {
    const service = polled(
      {
        report_id: 'rpt_9f2c41d07ab35e18',
        status: 'processing',
        poll_url: '/v1/reports/rpt_9f2c41d07ab35e18',
      },
      [{ body: REPORT }],
      '/v1/reports/rpt_9f2c41d07ab35e18',
    );
    const result = await svc(['parse', file('s.pdf'), '--wait'], { tty: true, service });
    expect(result.code).toBe(0);
    expect(withoutSpinner(result.stderr)).toBe(
      'Uploaded: report rpt_9f2c41d07ab35e18 is being parsed. To look at it later:\n  svc reports get rpt_9f2c41d07ab35e18\n',
    );
    // Before the first poll's spinner.
    expect(result.stderr.indexOf('svc reports get')).toBeLessThan(
      result.stderr.indexOf('Parsing rpt_9f2c41d07ab35e18…'),
    );
  });

  it('a poll_url that is no report path: the later look is `svc api GET`, its text made inert', async () => {
    const service = polled(
      { poll_url: '/v1/jobs/j\u001b[2J1' },
      [{ body: REPORT }],
      '/v1/jobs/j%1B[2J1',
    );
    const result = await svc(['parse', file('s.pdf'), '--wait'], { tty: true, service });
    expect(result.code, result.stderr).toBe(0);
    expect(withoutSpinner(result.stderr)).toBe(
      'Uploaded: the report at /v1/jobs/j[2J1 is being parsed. To look at it later:\n  svc api GET /v1/jobs/j[2J1\n',
    );
  });

  it('gives a script the final report and nothing on stderr', async () => {
    const result = await svc(['parse', file('s.pdf'), '--wait'], {
      service: polled(ACCEPTED, [{ body: PROCESSING }, { body: REPORT }]),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^FIELD\tVALUE\nreport_id\tcl_abc123\nstatus\tcomplete\n/);
  });

  it.each([
    [
      'an absolute poll_url under the base URL',
      { poll_url: 'https://svc.test/v1/reports/cl_abc123' },
      POLL,
    ],
    [
      'a poll_url with a query',
      { poll_url: '/v1/reports/cl_abc123?view=full' },
      '/v1/reports/cl_abc123?view=full',
    ],
    ['a report_id alone', { report_id: 'cl_abc123' }, POLL],
    [
      'a poll_url elsewhere, and a report_id',
      { poll_url: 'https://elsewhere.test/v1/reports/cl_abc123', report_id: 'cl_abc123' },
      POLL,
    ],
    [
      'a poll_url of another scheme, and a report_id',
      { poll_url: 'http://svc.test/v1/reports/x', report_id: 'cl_abc123' },
      POLL,
    ],
  ])('polls the base URL only: %s', async (_what, accepted, path) => {
    const result = await svc(['parse', file('s.pdf'), '--wait', '--json'], {
      service: polled(accepted, [{ body: REPORT }], path),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.requests.every((r) => r.url.origin === 'https://svc.test')).toBe(true);
  });

  it.each([
    [
      'names neither a poll_url nor a report_id',
      { status: 'processing' },
      'error: unexpected reply to POST /v1/parse: it names neither a poll_url nor a report_id to wait for',
    ],
    [
      'is a list',
      [ACCEPTED],
      'error: unexpected reply to POST /v1/parse: it names neither a poll_url nor a report_id to wait for',
    ],
    [
      'names a poll_url elsewhere and no report_id',
      { poll_url: 'https://elsewhere.test/v1/reports/cl_abc123' },
      'error: unexpected reply to POST /v1/parse: its poll_url "https://elsewhere.test/v1/reports/cl_abc123" is not under the base URL https://svc.test, and it names no report_id',
    ],
  ])(
    'an accepted upload that %s is exit 10, and nothing is polled',
    async (_what, accepted, line) => {
      for (const tty of [true, false]) {
        const result = await svc(['parse', file('s.pdf'), '--wait'], {
          tty,
          service: polled(accepted, []),
        });
        expectFailureOf(result, 10, line);
        expect(result.requests).toHaveLength(1);
      }
    },
  );

  it.each(MODES)(
    'a poll_url elsewhere that echoes the key split by ESC[0m: the error masks it, for $mode',
    async ({ tty }) => {
      const split = `${KEY.slice(0, 14)}\u001b[0m${KEY.slice(14)}`;
      const result = await svc(['parse', file('s.pdf'), '--wait'], {
        tty,
        service: polled({ poll_url: `https://elsewhere.test/v1/${split}` }, []),
      });
      expect(result.code).toBe(10);
      expect(result.stderr).not.toContain(KEY.slice(14));
      expect(result.stderr).toContain(`…${KEY.slice(-4)}`);
    },
  );

  it('a poll answered without a status is taken as final', async () => {
    const result = await svc(['parse', file('s.pdf'), '--wait', '--json'], {
      service: polled(ACCEPTED, [{ body: PROCESSING }, { body: { report_id: ID } }]),
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ report_id: ID });
  });

  it.each(MODES)(
    'gives up after --wait-timeout (exit 9), having waited no longer than it, for $mode',
    async ({ tty }) => {
      const service = polled(ACCEPTED, Array(4).fill({ body: PROCESSING }));
      const result = await svc(['parse', file('s.pdf'), '--wait', '--wait-timeout', '3'], {
        tty,
        service,
      });
      // A person was told the id when the upload was accepted, before the wait.
      expectFailure(result, 9, 'error: report cl_abc123 is still processing after 3 s', (stderr) =>
        withoutSpinner(stderr).replace(tty ? UPLOADED : '', ''),
      );
      expect(result.waits).toEqual([1000, 1500, 500]);
      expect(result.waits.reduce((a, b) => a + b)).toBe(3000);
      expect(withoutSpinner(unwrapped(result.stderr))).toContain(
        'Check it later with `svc reports get cl_abc123`, or wait longer with --wait-timeout.',
      );
    },
  );

  it('the default limit is 600 s', async () => {
    // 1 + 1.5 + 2.25 + 3.375 s, then 5 s at a time: 600 s are reached at the 123rd poll.
    const waits = [1000, 1500, 2250, 3375, ...Array(118).fill(5000), 600_000 - 8125 - 118 * 5000];
    const service = polled(ACCEPTED, Array(waits.length + 1).fill({ body: PROCESSING }));
    const result = await svc(['parse', file('s.pdf'), '--wait'], { service });
    expectFailureOf(result, 9, 'error: report cl_abc123 is still processing after 600 s');
    expect(result.waits).toEqual(waits);
  });

  it.each(
    ['0', '-1', 'ten', '1.5', '86401', ''].flatMap((value) =>
      MODES.map(({ mode, tty }) => ({ value, mode, tty })),
    ),
  )(
    'refuses --wait-timeout $value before any request (exit 2), for $mode',
    async ({ value, tty }) => {
      expectRefused(
        await svc(['parse', file('s.pdf'), '--wait', `--wait-timeout=${value}`], { tty }),
        /--wait-timeout takes a whole number from 1 to 86400/,
        withoutSpinner,
      );
    },
  );

  it.each(MODES)(
    'a report that failed is printed, then exit 6 with why, for $mode',
    async ({ tty }) => {
      const result = await svc(['parse', file('s.pdf'), '--wait'], {
        tty,
        service: polled(ACCEPTED, [{ body: PROCESSING }, { body: FAILED }]),
      });
      expect(result.code).toBe(6);
      const text = tty ? plain(result.stdout).replace(/ {2,}/g, '\t') : result.stdout;
      expect(text).toMatch(/^(status|Status)\tfailed$/m);
      expect(text).toMatch(
        tty
          ? /^Error code\tDOCUMENT_PARSE_FAILED$/m
          : /^error\.error_code\tDOCUMENT_PARSE_FAILED$/m,
      );
      const stderr = withoutSpinner(result.stderr);
      const uploaded = tty ? UPLOADED : '';
      expect(stderr.slice(0, uploaded.length)).toBe(uploaded);
      expect(unwrapped(stderr.slice(uploaded.length))).toBe(
        'error: report cl_abc123 failed: DOCUMENT_PARSE_FAILED: The document could not be parsed.\n',
      );
      expect(result.waits).toEqual([1000]);
    },
  );

  it('a failed report with --json: the report exactly as received on stdout, exit 6', async () => {
    const result = await svc(['parse', file('s.pdf'), '--wait', '--json'], {
      service: polled(ACCEPTED, [{ body: FAILED }]),
    });
    expect(result.code).toBe(6);
    expect(JSON.parse(result.stdout)).toEqual(FAILED);
    // On stderr, as every failure in machine output: one JSON envelope.
    expect(JSON.parse(result.stderr)).toEqual({
      error_code: 'INVALID',
      error_message:
        'report cl_abc123 failed: DOCUMENT_PARSE_FAILED: The document could not be parsed.',
    });
  });

  it.each([
    [
      'the older nested error',
      { report_id: ID, status: 'failed', error: { code: 'TAMPER_DETECTED', message: 'Edited.' } },
      'TAMPER_DETECTED: Edited.',
    ],
    ['no error at all', { report_id: ID, status: 'failed' }, 'no reason given'],
    [
      'no report_id',
      { status: 'failed', error: { error_code: 'DOCUMENT_PARSE_FAILED' } },
      'DOCUMENT_PARSE_FAILED',
    ],
  ])('a failed report with %s says why it can', async (what, body, reason) => {
    const result = await svc(['parse', file('s.pdf'), '--wait'], {
      service: polled(ACCEPTED, [{ body }]),
    });
    expect(result.code).toBe(6);
    const report = what === 'no report_id' ? POLL : ID;
    expect(result.stderr).toBe(`error: report ${report} failed: ${reason}\n`);
  });

  it('a poll answered 503 is retried on the test clock, and the wait goes on', async () => {
    const busy = {
      status: 503,
      body: envelope('API_ERROR', 'API_ERROR', 'Busy.'),
      headers: { 'retry-after': '2' },
    };
    const result = await svc(['parse', file('s.pdf'), '--wait', '--json'], {
      service: polled(ACCEPTED, [{ body: PROCESSING }, busy, { body: REPORT }]),
    });
    expect(result.code).toBe(0);
    expect(result.waits).toEqual([1000, 2000]);
  });

  it.each([
    [
      404,
      envelope('INVALID_REQUEST_ERROR', 'REPORT_NOT_FOUND', 'Gone.'),
      5,
      'error: REPORT_NOT_FOUND: Gone.',
    ],
    [401, ERROR_FLAT, 3, 'error: INVALID_API_KEY: Unknown API key.'],
  ])('a poll answered %s ends the wait with its exit code', async (status, body, exit, line) => {
    const result = await svc(['parse', file('s.pdf'), '--wait'], {
      service: polled(ACCEPTED, [{ body: PROCESSING }, { status, body }]),
    });
    expectFailureOf(result, exit, line);
  });

  it.each(MODES)(
    'Ctrl-C while waiting stops at once (exit 130), with no further poll, and says how to look at the report later, for $mode',
    async ({ tty }) => {
      const controller = new AbortController();
      // The first poll's reply comes with the interrupt.
      const service = polled(ACCEPTED, []).expect('GET', POLL, () => {
        controller.abort();
        return { body: PROCESSING };
      });
      const result = await svc(['parse', file('s.pdf'), '--wait'], {
        tty,
        service,
        signal: controller.signal,
      });
      expect(result.code).toBe(130);
      expect(result.stdout).toBe('');
      expect(result.requests).toHaveLength(2);
      expect(result.waits).toEqual([]);
      // A person saw the id when the upload was accepted; the interruption says it again, to a
      // script too.
      const interrupted =
        'error: interrupted\nThe upload was accepted: report cl_abc123 is still being parsed; look at it later with `svc reports get cl_abc123`.\n';
      const stderr = withoutSpinner(result.stderr);
      const uploaded = tty ? UPLOADED : '';
      expect(stderr.slice(0, uploaded.length)).toBe(uploaded);
      expect(unwrapped(stderr.slice(uploaded.length))).toBe(interrupted);
    },
  );

  it('Ctrl-C while waiting, with --json in a script: the interruption as one JSON line, with how to look later', async () => {
    const controller = new AbortController();
    const service = polled(ACCEPTED, []).expect('GET', POLL, () => {
      controller.abort();
      return { body: PROCESSING };
    });
    const result = await svc(['parse', file('s.pdf'), '--wait', '--json'], {
      service,
      signal: controller.signal,
    });
    expect(result.code).toBe(130);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error_code: 'INTERRUPTED',
      error_message: 'interrupted',
      suggested_action:
        'The upload was accepted: report cl_abc123 is still being parsed; look at it later with `svc reports get cl_abc123`.',
    });
  });
});

describe('svc parse FILE: the file is checked before any request', () => {
  let socketServer: Server | undefined;
  let socketPath: string;
  beforeAll(async () => {
    socketPath = join(scratchDir(), 'statement.sock');
    socketServer = createServer();
    await new Promise<void>((resolve) => socketServer!.listen(socketPath, resolve));
  });
  afterAll(
    () =>
      new Promise<void>((resolve) =>
        socketServer ? socketServer.close(() => resolve()) : resolve(),
      ),
  );

  const cases: Array<[string, () => string, RegExp]> = [
    [
      'a missing file',
      () => join(files, 'missing.pdf'),
      /^error: cannot read .*missing\.pdf: no such file$/,
    ],
    ['an empty file', () => file('empty.pdf', ''), /^error: .*empty\.pdf is empty$/],
    [
      'a text file',
      () => file('notes.txt', 'hello, not a statement'),
      /^error: .*notes\.txt is not a PDF, JPEG or PNG file \(judged by its first bytes\)$/,
    ],
    ['a GIF named .pdf', () => file('fake.pdf', 'GIF89a....'), /is not a PDF, JPEG or PNG file/],
    [
      'a file one byte over 20 MB',
      () => {
        const path = file('big.pdf');
        truncateSync(path, MAX + 1);
        return path;
      },
      /^error: .*big\.pdf is 20\.0 MB; the service takes files of at most 20 MB$/,
    ],
    ['a folder', () => files, /^error: .* is a folder, not a statement file$/],
    [
      'a path through a file',
      () => join(file('plain.pdf'), 'inner.pdf'),
      /^error: cannot read .*inner\.pdf: ENOTDIR/,
    ],
    ['a socket', () => socketPath, /^error: cannot read .*statement\.sock: /],
    // A device has no size to check first: it is read up to the limit, not without end.
    ['an endless device', () => '/dev/zero', /^error: \/dev\/zero is larger than 20 MB$/],
  ];

  it.each(
    cases.flatMap(([what, path, message]) =>
      MODES.map(({ mode, tty }) => ({ what, path, message, mode, tty })),
    ),
  )('refuses $what (exit 2), for $mode', async ({ path, message, tty }) => {
    expectRefused(await svc(['parse', path()], { tty }), message, withoutSpinner);
  });

  it.skipIf(process.getuid?.() === 0)('refuses a file it may not read (exit 2)', async () => {
    const path = file('secret.pdf');
    chmodSync(path, 0o000);
    expectRefused(
      await svc(['parse', path]),
      /^error: cannot read .*secret\.pdf: permission denied$/,
      withoutSpinner,
    );
  });

  it.each(
    [
      [['parse'], /file/],
      [['parse', 'a.pdf', 'b.pdf'], /too many/i],
      [['parse', '--bank', 'a b', 'x.pdf'], /--bank takes a bank code/],
      [['parse', '--bank', '', 'x.pdf'], /--bank takes a bank code/],
      [['parse', '--bank', '../x', 'x.pdf'], /--bank takes a bank code/],
    ].flatMap(([argv, message]) =>
      MODES.map(({ mode, tty }) => ({
        argv: argv as string[],
        message: message as RegExp,
        mode,
        tty,
      })),
    ),
  )('refuses svc $argv (exit 2), for $mode', async ({ argv, message, tty }) => {
    expectRefused(await svc(argv, { tty }), message, withoutSpinner);
  });
});

describe('svc parse FILE: API failures', () => {
  const FAILURES = [
    {
      what: '401',
      status: 401,
      body: ERROR_FLAT,
      exit: 3,
      line: 'error: INVALID_API_KEY: Unknown API key.',
      waits: [] as number[],
    },
    {
      what: '403 (a READ_ONLY key)',
      status: 403,
      body: envelope('PERMISSION_ERROR', 'INSUFFICIENT_SCOPE', 'This key may not parse.'),
      exit: 4,
      line: 'error: INSUFFICIENT_SCOPE: This key may not parse.',
      waits: [],
    },
    {
      what: '404',
      status: 404,
      body: envelope('INVALID_REQUEST_ERROR', 'NOT_FOUND', 'No such route.'),
      exit: 5,
      line: 'error: NOT_FOUND: No such route.',
      waits: [],
    },
    {
      what: '400 (document not parsed)',
      status: 400,
      body: envelope('INVALID_REQUEST_ERROR', 'DOCUMENT_PARSE_FAILED', 'Unreadable.'),
      exit: 6,
      line: 'error: DOCUMENT_PARSE_FAILED: Unreadable.',
      waits: [],
    },
    {
      what: '422 (key reused)',
      status: 422,
      body: envelope('INVALID_REQUEST_ERROR', 'IDEMPOTENCY_KEY_REUSED', 'Other parameters.'),
      exit: 6,
      line: 'error: IDEMPOTENCY_KEY_REUSED: Other parameters.',
      waits: [],
    },
    {
      what: '429',
      status: 429,
      body: envelope('RATE_LIMIT_ERROR', 'RATE_LIMITED', 'Slow down.'),
      exit: 7,
      line: 'error: RATE_LIMITED: Slow down.',
      waits: [375, 750],
    },
    {
      what: '429 (quota used up)',
      status: 429,
      body: envelope('RATE_LIMIT_ERROR', 'QUOTA_EXCEEDED', 'Parse quota used up.'),
      exit: 7,
      line: 'error: QUOTA_EXCEEDED: Parse quota used up.',
      waits: [],
    },
    {
      what: '503',
      status: 503,
      body: envelope('API_ERROR', 'API_ERROR', 'Down.'),
      exit: 8,
      line: 'error: API_ERROR: Down.',
      waits: [375, 750],
    },
  ];

  it.each(FAILURES.flatMap((failure) => MODES.map(({ mode, tty }) => ({ ...failure, mode, tty }))))(
    '$what → exit $exit, for $mode',
    async ({ status, body, exit, line, waits, tty }) => {
      const service = new FakeService();
      for (let i = 0; i <= waits.length; i++) service.expect('POST', '/v1/parse', { status, body });
      const result = await svc(['parse', file('s.pdf')], { tty, service });
      expectFailureOf(result, exit, line);
      expect(result.waits).toEqual(waits);
      // Every attempt is the same upload under the same Idempotency-Key.
      const keys = new Set(result.requests.map((r) => r.headers['idempotency-key']));
      expect(keys.size).toBe(1);
      expect([...keys][0]).toMatch(UUID);
      expect(
        new Set(
          result.requests.map((r) =>
            multipartOf(r)
              .find((p) => p.name === 'file')!
              .data.toString('latin1'),
          ),
        ).size,
      ).toBe(1);
    },
  );

  it('a 503 then a success: the retried upload’s report is shown', async () => {
    const service = new FakeService()
      .expect('POST', '/v1/parse', {
        status: 503,
        body: envelope('API_ERROR', 'API_ERROR', 'Busy.'),
        headers: { 'retry-after': '4' },
      })
      .expect('POST', '/v1/parse', { body: REPORT });
    const result = await svc(['parse', file('s.pdf'), '--json'], { service });
    expect(result.code).toBe(0);
    expect(result.waits).toEqual([4000]);
    expect(result.requests[1]!.headers['idempotency-key']).toBe(
      result.requests[0]!.headers['idempotency-key'],
    );
    expect(JSON.parse(result.stdout)).toEqual(REPORT);
  });

  it('with --json, stderr is the error envelope as one compact line', async () => {
    const result = await svc(['parse', file('s.pdf'), '--json'], {
      service: upload({ status: 401, body: ERROR_FLAT }),
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(JSON.stringify(ERROR_FLAT) + '\n');
  });
});
