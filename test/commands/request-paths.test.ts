// Every request stays under /v1 of the base URL, whatever its path came from: an id typed by the
// user, or a link or an id in a reply. A URL reads `\` as `/`, and a server that decodes a path
// reads %2f, %5c and %2e as / \ and .: ids holding them are refused before any request (exit 2,
// one line), and the URL of every request is checked where it is made. `svc api`'s own paths are
// tested in api.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  expectFailure,
  FakeService,
  MODES,
  scratchDir,
  svc,
  unwrapped,
} from '../support/in-process.js';

/**
 * A base URL with a path of its own: leaving /v1 must not be a way to reach the rest of it either.
 */
const PREFIXED = { SVC_BASE_URL: 'https://svc.test/prefix' };

/** A command of each kind that takes an id, with `{}` where the id goes. */
const ID_COMMANDS: {
  name: string;
  argv: string[];
  env?: Record<string, string | undefined>;
  what?: string;
}[] = [
  { name: 'reports get', argv: ['reports', 'get', '{}'] },
  { name: 'reports counterparties', argv: ['reports', 'counterparties', '{}'] },
  { name: 'reports match', argv: ['reports', 'match', '{}', '--name', 'Ram Bahadur Shrestha'] },
  {
    name: 'reports underwrite',
    argv: [
      'reports',
      'underwrite',
      '{}',
      '--principal',
      '500000',
      '--tenor-months',
      '36',
      '--annual-rate',
      '12.5',
    ],
  },
  { name: 'sandbox fire', argv: ['sandbox', 'fire', '{}'] },
  { name: 'consents revoke', argv: ['consents', 'revoke', '{}'], what: 'consent id' },
  {
    name: 'consents data',
    argv: ['consents', 'data', '{}', '--token', 'cst_5e1f0c2d9a8b7e6f5e1f0c2d9a8b7e6f'],
    env: { SVC_API_KEY: undefined },
    what: 'consent id',
  },
  {
    name: 'grants data',
    argv: ['grants', 'data', '{}'],
    env: { SVC_ACCESS_TOKEN: 'cat_0a1b2c3d4e5f60718293a4b5c6d7e8f9' },
    what: 'grant id',
  },
  { name: 'consents create', argv: ['consents', 'create', '{}', '--scopes', 'identity'] },
  {
    name: 'decisions record --report-id',
    argv: [
      'decisions',
      'record',
      '--client-reference-id',
      'loan-1001',
      '--decision',
      'approved',
      '--report-id',
      '{}',
    ],
  },
];

/**
 * Ids that lead out of /v1 on a server that reads `\` as `/` or decodes the path, and why each is
 * refused.
 */
const ESCAPING_IDS: [string, string][] = [
  ['..\\..\\admin', 'must not contain / \\ ? # or white space'],
  ['rpt_1\\..\\..\\usage', 'must not contain / \\ ? # or white space'],
  ['..%2f..%2fadmin', 'must not contain %2f, an encoded / \\ or .'],
  ['..%5C..%5Cadmin', 'must not contain %5C, an encoded / \\ or .'],
  ['%2e%2e', 'must not contain %2e, an encoded / \\ or .'],
  ['.%2E', 'must not contain %2E, an encoded / \\ or .'],
  ['..%252f..%252fadmin', 'must not contain %252f, an encoded / \\ or .'],
];

describe('ids that would lead out of /v1 are refused before any request (exit 2)', () => {
  const cases = ID_COMMANDS.flatMap((command) =>
    ESCAPING_IDS.map(([id, why]) => ({ ...command, id, why })),
  );

  describe.each(MODES)('as $mode', ({ tty }) => {
    it.each(cases)(
      'svc $name with the id $id',
      async ({ argv, env, what = 'report id', id, why }) => {
        // The fake service expects no request: one sent would fail the test.
        const result = await svc(
          argv.map((arg) => (arg === '{}' ? id : arg)),
          { tty, env: { ...PREFIXED, ...env } },
        );
        expectFailure(result, 2, `error: the ${what} "${id}" ${why}`);
        expect(unwrapped(result.stderr).trimEnd().split('\n')).toHaveLength(1);
        expect(result.requests).toEqual([]);
      },
    );
  });
});

/** What the spinner of a person's terminal leaves in a test's stderr (no terminal to clear it). */
function withoutSpinner(stderr: string): string {
  return stderr.replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (Uploading|Parsing) [^…\n]*…( \d+ s)?/g, '');
}

describe('a reply cannot send the key out of /v1 either: the URL of every request is checked where it is made', () => {
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n', 'latin1');
  let files = 0;
  function statement(): string {
    const dir = join(scratchDir(), 'request-paths');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `s-${++files}.pdf`);
    writeFileSync(path, PDF);
    return path;
  }

  const LINKS: [string, object, string][] = [
    [
      'a poll_url with backslashes',
      { poll_url: '/v1/..\\..\\_mock\\requests' },
      'error: the request path "/v1/..\\..\\_mock\\requests" leads to /_mock/requests, outside https://svc.test/prefix/v1/, the API under the base URL: nothing was sent',
    ],
    [
      'a poll_url with encoded dots',
      { poll_url: '/v1/%2e%2e/%2e%2e/admin' },
      'error: the request path "/v1/%2e%2e/%2e%2e/admin" leads to /admin, outside https://svc.test/prefix/v1/, the API under the base URL: nothing was sent',
    ],
    [
      'a poll_url with an encoded slash',
      { poll_url: '/v1/reports/..%2f..%2fadmin' },
      'error: the request path "/v1/reports/..%2f..%2fadmin" holds %2f, an encoded / \\ or . that a server may read as one: nothing was sent',
    ],
    [
      'an absolute poll_url with an encoded backslash',
      { poll_url: 'https://svc.test/prefix/v1/..%5c..%5cadmin' },
      'error: the request path "/v1/..%5c..%5cadmin" holds %5c, an encoded / \\ or . that a server may read as one: nothing was sent',
    ],
    [
      'a report_id with backslashes',
      { report_id: '..\\..\\admin', status: 'processing' },
      'error: the report id "..\\..\\admin" must not contain / \\ ? # or white space',
    ],
  ];

  describe.each(MODES)('as $mode', ({ tty }) => {
    it.each(LINKS)(
      'svc parse --wait, answered with %s: exit 2, and nothing is polled',
      async (_what, accepted, line) => {
        // The upload is the one request: a poll would be unexpected, and fail the test.
        const service = new FakeService().expect('POST', '/prefix/v1/parse', {
          status: 202,
          body: accepted,
        });
        const result = await svc(['parse', statement(), '--wait'], { tty, env: PREFIXED, service });
        expectFailure(result, 2, line, withoutSpinner);
        expect(result.requests).toHaveLength(1);
      },
    );
  });
});
