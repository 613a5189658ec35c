// Property-based tests of the parsers of user input: whatever is typed, the answer is a value or
// a usage error (exit 2), never a crash and never a wrong acceptance.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { checkId, checkInteger } from '../../src/commands/args.js';
import { checkBaseUrl, profileToWrite } from '../../src/config/resolve.js';
import { ConfigStore } from '../../src/config/store.js';
import { UsageError } from '../../src/core/errors.js';
import { integerOption } from '../../src/core/program/typed-options.js';
import { isLoopbackHost } from '../../src/core/urls.js';
import { keyMode, maskKey } from '../../src/service/keys.js';
import { parserOf, valueOrUsageError } from '../support/usage-error.js';

describe('ids', () => {
  it('accept exactly the non-empty strings without / \\ ? # white space or an encoded / \\ . (%2f, %5c, %2e), but . and ..', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.constantFrom('.', '..', '...', '%2e%2e', 'a%252Fb', 'a%5Cb', '%2'),
        ),
        (id) => {
          const result = valueOrUsageError(() => checkId(id));
          const acceptable =
            id !== '' &&
            !/[/\\?#\s]/.test(id) &&
            !/%(25)*(2f|5c|2e)/i.test(id) &&
            id !== '.' &&
            id !== '..';
          expect(result instanceof UsageError).toBe(!acceptable);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('whole numbers in a range (--limit, --port …)', () => {
  const declared = parserOf(integerOption('--limit <n>', 'how many', { min: 1, max: 100 }));
  it.each([
    ['declared with integerOption', declared],
    ['checked by hand (checkInteger)', (text: string) => checkInteger(text, '--limit', 1, 100)],
  ])('accept only digits within the bounds: %s', (_, parse) => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 200 }).map(String)),
        (text) => {
          const result = valueOrUsageError(() => parse(text));
          const acceptable = /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 100;
          expect(result instanceof UsageError).toBe(!acceptable);
          if (acceptable) expect(result).toBe(Number(text));
          else
            expect((result as UsageError).message).toBe(
              `--limit takes a whole number from 1 to 100, not "${text}"`,
            );
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('base URLs', () => {
  it('never throw anything but a usage error, and what they accept is https or loopback http', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
        ),
        (text) => {
          const result = valueOrUsageError(() => checkBaseUrl(text));
          if (typeof result === 'string') {
            const url = new URL(result);
            expect(
              url.protocol === 'https:' ||
                (url.protocol === 'http:' && isLoopbackHost(url.hostname)),
            ).toBe(true);
            expect(result.endsWith('/')).toBe(false);
            expect(url.search + url.hash).toBe('');
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuse http:// to every host that is not this machine', () => {
    fc.assert(
      fc.property(fc.domain(), (domain) => {
        fc.pre(!isLoopbackHost(domain));
        expect(() => checkBaseUrl(`http://${domain}`)).toThrow(/uses http to/);
      }),
    );
  });

  it('accept https:// to any host', () => {
    fc.assert(
      fc.property(fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 })), (domain, port) => {
        const text = `https://${domain}${port === null ? '' : `:${port}`}`;
        expect(checkBaseUrl(text)).toBe(new URL(text).origin);
      }),
    );
  });
});

describe('key forms', () => {
  it('mask every key to its form and at most four characters of its secret', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('svc_sk_live_', 'svc_sk_test_', 'sk_', ''),
        fc.string({ minLength: 0, maxLength: 64 }),
        (prefix, secret) => {
          const key = prefix + secret;
          const masked = maskKey(key);
          const mode = keyMode(key);
          const shownPrefix = mode === 'unknown' ? '' : `svc_sk_${mode}_`;
          expect(masked.startsWith(`${shownPrefix}…`)).toBe(true);
          const tail = masked.slice(shownPrefix.length + 1);
          expect(tail.length).toBeLessThanOrEqual(4);
          expect(key.endsWith(tail)).toBe(true);
          if (key.length >= 8) expect(masked).not.toContain(key);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('profile names', () => {
  // Names JavaScript gives a meaning to are refused too: a profile must never be an object's
  // prototype.
  const RESERVED = ['__proto__', 'constructor', 'prototype'];

  it('are 1 to 64 letters, digits, dot, dash or underscore, other than the reserved ones', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 70 }), fc.constantFrom(...RESERVED)), (name) => {
        const result = valueOrUsageError(() =>
          profileToWrite({ profile: name }, {}, { profiles: {} }),
        );
        expect(result instanceof UsageError).toBe(
          !/^[A-Za-z0-9_.-]{1,64}$/.test(name) || RESERVED.includes(name),
        );
      }),
    );
  });
});

describe('the config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-prop-'));
  const store = new ConfigStore(dir);
  it('of any content reads as profiles or as a usage error naming the file', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string({ maxLength: 30 })), (content) => {
        writeFileSync(join(dir, 'config.json'), content);
        const result = valueOrUsageError(() => store.read());
        if (result instanceof UsageError) expect(result.message).toContain(store.file);
        else expect(typeof result.profiles).toBe('object');
      }),
      { numRuns: 300 },
    );
  });
});
