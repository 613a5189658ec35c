// Property-based tests of what keeps a request inside the API under the base URL: the URL of every
// request (requestUrl, where the client and the reply cache make it) lies under the base URL's
// path + /v1, with no encoded separator or dot there; ids and `svc api` paths refuse `\` and the
// encoded forms of / \ and . whatever their case and however often they were encoded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { checkId, requestUrl } from '../../src/api/endpoints.js';
import { encodedSeparatorIn } from '../../src/api/request-paths.js';
import { apiPath } from '../../src/commands/api/fields.js';
import { UsageError } from '../../src/core/errors.js';
import { valueOrUsageError } from '../support/usage-error.js';

/**
 * `/`, `\` or `.` percent-encoded in any case, then encoded again 0 to 3 times (`%2f`, `%252F`,
 * `%25252e`…).
 */
const encodedSeparator = fc
  .tuple(fc.constantFrom('2f', '2F', '5c', '5C', '2e', '2E'), fc.nat({ max: 3 }))
  .map(([hex, again]) => `%${'25'.repeat(again)}${hex}`);

/** Text built from the characters that matter to paths, so the properties meet them often. */
const pathText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '/',
        '\\',
        '.',
        '..',
        '%',
        '%2e',
        '%2F',
        '%5c',
        '%252f',
        ';',
        '?',
        'v1',
        'x',
        '_mock',
        'a',
      ),
      encodedSeparator,
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/**
 * A base URL as checkBaseUrl leaves it: an origin, and a path of its own or none, without a
 * trailing slash.
 */
const baseUrl = fc
  .tuple(
    fc.constantFrom('https://svc.test', 'https://api.example.com:8443', 'http://127.0.0.1:8799'),
    fc.array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { maxLength: 3 }),
  )
  .map(([origin, segments]) => origin + segments.map((s) => `/${s}`).join(''));

describe('encoded separators and dots', () => {
  it('are found in any text, in any case, however often encoded', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        encodedSeparator,
        fc.string({ maxLength: 20 }),
        (before, encoded, after) => {
          expect(encodedSeparatorIn(before + encoded + after)).toBeDefined();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('are never found in a text without %', () => {
    fc.assert(
      fc.property(
        fc.string().filter((text) => !text.includes('%')),
        (text) => {
          expect(encodedSeparatorIn(text)).toBeUndefined();
        },
      ),
    );
  });
});

describe('the URL of every request', () => {
  it('lies under the base URL path + /v1 on its origin, with no encoded separator, dot or dot segment there; or is refused (exit 2)', () => {
    fc.assert(
      fc.property(
        baseUrl,
        fc.oneof(
          pathText,
          pathText.map((text) => `/v1/${text}`),
          fc.string({ maxLength: 30 }),
        ),
        (base, path) => {
          const url = valueOrUsageError(() => requestUrl(base, path));
          if (url instanceof UsageError) return;
          const root = `${new URL(base).pathname.replace(/\/$/, '')}/v1`;
          expect(url.origin).toBe(new URL(base).origin);
          expect(url.pathname === root || url.pathname.startsWith(`${root}/`)).toBe(true);
          const rest = url.pathname.slice(root.length);
          expect(encodedSeparatorIn(rest)).toBeUndefined();
          expect(rest.split('/').map((segment) => segment.split(';')[0])).not.toContainEqual(
            expect.stringMatching(/^\.\.?$/),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is the base URL and the path as given, for a path of plain segments under /v1', () => {
    fc.assert(
      fc.property(
        baseUrl,
        fc.array(fc.stringMatching(/^[A-Za-z0-9_~-]{1,10}$/), { minLength: 1, maxLength: 5 }),
        (base, segments) => {
          const path = `/v1/${segments.join('/')}`;
          expect(requestUrl(base, path).href).toBe(base + path);
        },
      ),
    );
  });

  it.each([
    [
      '/v1/x\\..\\..\\_mock\\requests',
      'leads to /prefix/_mock/requests, outside https://svc.test/prefix/v1/, the API under the base URL',
    ],
    [
      '/v1/reports/..\\..\\..\\admin',
      'leads to /admin, outside https://svc.test/prefix/v1/, the API under the base URL',
    ],
    [
      '/v1/%2e%2e/%2E%2E/admin',
      'leads to /admin, outside https://svc.test/prefix/v1/, the API under the base URL',
    ],
    [
      '/v1/reports/..%2f..%2fadmin',
      'holds %2f, an encoded / \\ or . that a server may read as one',
    ],
    ['/v1/reports/a%255Cb', 'holds %255C, an encoded / \\ or . that a server may read as one'],
    ['/v1/reports/..;/admin', 'holds the segment "..;", which a server may read as . or ..'],
    [
      '/v1/..',
      'leads to /prefix/, outside https://svc.test/prefix/v1/, the API under the base URL',
    ],
    ['.evil.test/v1/usage', 'does not start with /'],
  ])('%s is refused with one line naming where it leads', (path, why) => {
    // The base URL's own path counts: `https://svc.test/prefix/_mock` is as far from the API as
    // `/_mock`.
    const refusal = valueOrUsageError(() => requestUrl('https://svc.test/prefix', path));
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as UsageError).message).toBe(
      `the request path "${path}" ${why}: nothing was sent`,
    );
  });
});

describe('ids', () => {
  it('with \\ or an encoded / \\ or . anywhere are refused', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9_]{0,10}$/),
        fc.oneof(fc.constant('\\'), encodedSeparator),
        fc.stringMatching(/^[a-z0-9_.]{0,10}$/),
        (before, bad, after) => {
          expect(valueOrUsageError(() => checkId(before + bad + after))).toBeInstanceOf(UsageError);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('..\\..\\admin is refused, saying why', () => {
    expect(() => checkId('..\\..\\admin')).toThrow(
      'the report id "..\\..\\admin" must not contain / \\ ? # or white space',
    );
    expect(() => checkId('%2e%2E', 'consent id')).toThrow(
      'the consent id "%2e%2E" must not contain %2e, an encoded / \\ or .',
    );
  });
});

describe('svc api paths', () => {
  it("with \\ or an encoded / \\ or . before the query are refused; after it they are the query's", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9_/]{0,10}$/),
        fc.oneof(fc.constant('\\'), encodedSeparator),
        fc.stringMatching(/^[a-z0-9_]{0,10}$/),
        (before, bad, after) => {
          expect(valueOrUsageError(() => apiPath(before + bad + after))).toBeInstanceOf(UsageError);
          expect(apiPath(`${before}?q=${bad}${after}`)).toMatch(/\?q=/);
        },
      ),
      { numRuns: 500 },
    );
  });
});
