// Property-based tests of `svc api`'s parsers of user input: key=value fields, typed values, key
// paths, headers, methods and paths. Whatever is typed: a value or a usage error, never a crash.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  apiPath,
  buildObject,
  checkMethod,
  keyPath,
  parseHeader,
  splitField,
  typedValue,
} from '../../src/commands/api/fields.js';
import { UsageError } from '../../src/core/errors.js';

function valueOrUsageError<T>(f: () => T): T | UsageError {
  try {
    return f();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
}

describe('key=value fields', () => {
  it('split at the first = into a non-empty key and the rest, or are refused', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        const result = valueOrUsageError(() => splitField(text, '-f'));
        if (text.indexOf('=') <= 0) expect(result).toBeInstanceOf(UsageError);
        else
          expect(result).toEqual([
            text.slice(0, text.indexOf('=')),
            text.slice(text.indexOf('=') + 1),
          ]);
      }),
      { numRuns: 500 },
    );
  });

  it('keep any value after the first = as it is', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z_]{1,10}$/),
        fc.string({ maxLength: 30 }),
        (key, value) => {
          expect(splitField(`${key}=${value}`, '-f')).toEqual([key, value]);
        },
      ),
    );
  });
});

describe('typed values (-F)', () => {
  const noFile = async (): Promise<string> => {
    throw new Error('no file here');
  };

  it('give numbers, booleans and null their type, and keep every other text a string', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 20 }).filter((s) => !s.startsWith('@')),
        async (raw) => {
          const value = await typedValue(raw, noFile);
          if (typeof value === 'number')
            expect(String(value) === raw || Number(raw) === value).toBe(true);
          else if (typeof value === 'boolean' || value === null) expect(raw).toBe(String(value));
          else expect(value).toBe(raw);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never turn an integer into a number that would change its digits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), async (n) => {
        const value = await typedValue(n.toString(), noFile);
        if (typeof value === 'number') expect(BigInt(value)).toBe(n);
        else expect(value).toBe(n.toString());
      }),
      { numRuns: 300 },
    );
  });
});

describe('key paths and the body they build', () => {
  it('of any text are a path or a usage error', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (key) => {
        const result = valueOrUsageError(() => keyPath(key));
        if (Array.isArray(result)) expect(result.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('put each plain key with its value into the body', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), { minLength: 1, maxLength: 6 }),
        fc.string({ maxLength: 10 }),
        (keys, value) => {
          const body = buildObject(keys.map((key) => ({ key, value })));
          expect(body).toEqual(Object.fromEntries(keys.map((key) => [key, value])));
        },
      ),
    );
  });
});

describe('headers, methods and paths', () => {
  it('headers of any text are a name and a value, or a usage error', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        const result = valueOrUsageError(() => parseHeader(text));
        if (Array.isArray(result)) {
          expect(result[0]).toMatch(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/);
          expect(result[1]).not.toMatch(/[\r\n]/);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('methods are the five svc api takes (docs/reference/local-service.md), in any case', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (text) => {
        const result = valueOrUsageError(() => checkMethod(text));
        expect(result instanceof UsageError).toBe(
          !['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(text.toUpperCase()),
        );
      }),
    );
  });

  it('paths stay under /v1: never a URL, a fragment, white space, a dot segment, \\ or an encoded / \\ .', () => {
    const tricky = fc
      .array(
        fc.constantFrom('/', '\\', '.', '..', '%2e', '%2F', '%5c', '%252f', ';', '?', 'v1', 'x'),
        { maxLength: 10 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 30 }), fc.webPath(), fc.webUrl(), tricky),
        (text) => {
          const result = valueOrUsageError(() => apiPath(text));
          if (typeof result === 'string') {
            const pathname = result.split('?')[0]!;
            expect(pathname === '/v1' || pathname.startsWith('/v1/')).toBe(true);
            expect(result).not.toMatch(/[\s#]/);
            expect(pathname.split('/')).not.toContain('..');
            expect(new URL(`https://api.example.com${result}`).pathname.startsWith('/v1')).toBe(
              true,
            );
            expect(pathname).not.toMatch(/\\|%(25)*(2f|5c|2e)/i);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
