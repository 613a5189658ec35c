import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { checkId } from '../../src/commands/args.js';
import { checkBaseUrl, resolveSettings } from '../../src/config/resolve.js';
import { UsageError } from '../../src/core/errors.js';
import { isLoopbackHost } from '../../src/core/urls.js';
import { keyMode, maskKey } from '../../src/service/keys.js';

describe('keys', () => {
  it('tells live from test keys and masks them to the prefix and last four', () => {
    expect(keyMode('svc_sk_live_abcdef0123456789')).toBe('live');
    expect(keyMode('svc_sk_test_abcdef0123456789')).toBe('test');
    // The unbranded forms some of the service's pages write are live and test keys too
    // (docs/reference/configuration.md, "Keys").
    expect(keyMode('sk_live_x')).toBe('live');
    expect(keyMode('sk_test_abcdef0123456789')).toBe('test');
    for (const other of [
      'pk_live_abcdef0123456789',
      'sk_live_',
      'svc_sk_test_',
      'svc_live_abcdef0123456789',
      'abcdef0123456789',
    ]) {
      expect(keyMode(other), other).toBe('unknown');
    }
    expect(maskKey('svc_sk_live_abcdef0123456789')).toBe('svc_sk_live_…6789');
    expect(maskKey('svc_sk_test_short')).toBe('svc_sk_test_…');
    expect(maskKey('sk_live_abcdef0123456789')).toBe('sk_live_…6789');
    expect(maskKey('sk_test_short')).toBe('sk_test_…');
  });
});

describe('base URLs', () => {
  it('takes https anywhere and http only on loopback', () => {
    expect(checkBaseUrl('https://api.example.com/')).toBe('https://api.example.com');
    expect(checkBaseUrl('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(checkBaseUrl('http://localhost:1')).toBe('http://localhost:1');
    expect(checkBaseUrl('http://[::1]:9')).toBe('http://[::1]:9');
    expect(() => checkBaseUrl('http://api.example.com')).toThrow(UsageError);
    expect(() => checkBaseUrl('http://10.0.0.1')).toThrow(/uses http to/);
    expect(() => checkBaseUrl('ftp://x')).toThrow(UsageError);
    expect(() => checkBaseUrl('https://api.example.com/v1')).toThrow(/must not end in \/v1/);
    expect(() => checkBaseUrl('not a url')).toThrow(UsageError);
    expect(isLoopbackHost('127.10.0.3')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });
});

describe('settings precedence', () => {
  const doc = {
    current_profile: 'work',
    profiles: {
      work: { base_url: 'https://w.example.com', api_key: 'svc_sk_live_work000000000' },
      home: { base_url: 'https://h.example.com' },
    },
  };
  it('is flag > env > profile > default', () => {
    expect(resolveSettings({}, {}, doc)).toMatchObject({
      profile: 'work',
      baseUrl: 'https://w.example.com',
      apiKeySource: 'profile',
    });
    expect(resolveSettings({}, { SVC_BASE_URL: 'https://e.example.com' }, doc)).toMatchObject({
      baseUrl: 'https://e.example.com',
      baseUrlSource: 'env',
    });
    expect(
      resolveSettings(
        { baseUrl: 'https://f.example.com' },
        { SVC_BASE_URL: 'https://e.example.com' },
        doc,
      ),
    ).toMatchObject({ baseUrlSource: 'flag' });
    expect(resolveSettings({}, { SVC_PROFILE: 'home' }, doc)).toMatchObject({
      profile: 'home',
      apiKey: undefined,
      apiKeySource: 'none',
    });
    expect(resolveSettings({ profile: 'home' }, { SVC_PROFILE: 'work' }, doc)).toMatchObject({
      profile: 'home',
    });
    expect(resolveSettings({}, {}, { profiles: {} })).toMatchObject({
      profile: 'default',
      profileSource: 'default',
    });
  });
  it('refuses a named profile that does not exist', () => {
    expect(() => resolveSettings({ profile: 'nope' }, {}, doc)).toThrow(/unknown profile "nope"/);
    expect(() => resolveSettings({}, { SVC_PROFILE: 'nope' }, doc)).toThrow(UsageError);
  });
});

describe('checkId', () => {
  it('accepts plain ids', () => {
    expect(checkId('rpt_9f2c41d07ab35e18')).toBe('rpt_9f2c41d07ab35e18');
  });
  it('refuses every id with / ? # or white space, and the empty id', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom('/', '?', '#', ' ', '\t', '\n'),
        fc.string(),
        (a, bad, b) => {
          expect(() => checkId(a + bad + b)).toThrow(UsageError);
        },
      ),
    );
    expect(() => checkId('')).toThrow(UsageError);
  });
});
