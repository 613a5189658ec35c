import { describe, expect, it } from 'vitest';

import { decodeErrorEnvelope, retryAfterMs } from '../../src/api/client.js';
import type { IO } from '../../src/core/io.js';
import { ApiError, EXIT_CODES, exitCodeFor } from '../../src/service/errors.js';
import { reportError } from '../../src/service/report-error.js';

describe('the exit-code table (docs/reference/exit-codes.md)', () => {
  it('is pinned', () => {
    expect(
      EXIT_CODES.map((row) => [
        row.exit,
        [...row.errorCodes],
        [...row.errorTypes],
        [...row.statuses],
        row.serverErrors ?? false,
      ]),
    ).toEqual([
      [0, [], [], [], false],
      [1, [], [], [], false],
      [2, [], [], [], false],
      [3, ['INVALID_API_KEY'], ['AUTHENTICATION_ERROR'], [401], false],
      [4, ['INSUFFICIENT_SCOPE', 'TEST_KEY_REQUIRED'], ['PERMISSION_ERROR'], [403], false],
      [5, ['NOT_FOUND', 'REPORT_NOT_FOUND'], [], [404], false],
      [
        6,
        ['INVALID_REQUEST', 'DOCUMENT_PARSE_FAILED'],
        ['INVALID_REQUEST_ERROR'],
        [400, 409, 422],
        false,
      ],
      [7, ['RATE_LIMITED', 'QUOTA_EXCEEDED'], ['RATE_LIMIT_ERROR'], [429], false],
      [8, [], ['API_ERROR'], [], true],
      [9, [], [], [], false],
      [10, [], [], [], false],
      [129, [], [], [], false],
      [130, [], [], [], false],
      [143, [], [], [], false],
    ]);
  });

  it('decides by error_code first, then error_type, then status', () => {
    expect(exitCodeFor('QUOTA_EXCEEDED', 'INVALID_REQUEST_ERROR', 400)).toBe(7);
    expect(exitCodeFor('SOMETHING_NEW', 'PERMISSION_ERROR', 400)).toBe(4);
    expect(exitCodeFor('SOMETHING_NEW', 'NEW_TYPE', 404)).toBe(5);
    expect(exitCodeFor(undefined, undefined, 503)).toBe(8);
    expect(exitCodeFor(undefined, undefined, 500)).toBe(8);
    expect(exitCodeFor(undefined, undefined, 418)).toBe(1);
    expect(exitCodeFor('TEST_KEY_REQUIRED', undefined, 403)).toBe(4);
  });
});

describe('decodeErrorEnvelope', () => {
  it('reads the flat envelope', () => {
    const raw = JSON.stringify({
      error_type: 'AUTHENTICATION_ERROR',
      error_code: 'INVALID_API_KEY',
      error_message: 'The API key is unknown.',
      display_message: null,
      request_id: 'req_0a1b',
      documentation_url: 'https://docs.example.com/concepts/errors#invalid_api_key',
      suggested_action: 'Check the key.',
      extra: 1,
    });
    expect(decodeErrorEnvelope(raw)).toEqual({
      error_type: 'AUTHENTICATION_ERROR',
      error_code: 'INVALID_API_KEY',
      error_message: 'The API key is unknown.',
      display_message: null,
      request_id: 'req_0a1b',
      documentation_url: 'https://docs.example.com/concepts/errors#invalid_api_key',
      suggested_action: 'Check the key.',
    });
  });

  it('reads the older nested envelope and upper-cases its code', () => {
    expect(
      decodeErrorEnvelope('{"error":{"code":"invalid_api_key","message":"Unknown key"}}'),
    ).toMatchObject({
      error_code: 'INVALID_API_KEY',
      error_message: 'Unknown key',
    });
  });

  it('refuses bodies that are no envelope', () => {
    expect(decodeErrorEnvelope('<html>Bad gateway</html>')).toBeUndefined();
    expect(decodeErrorEnvelope('{"message":"x"}')).toBeUndefined();
    expect(decodeErrorEnvelope('null')).toBeUndefined();
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  it('reads seconds and HTTP dates, capped at 60 s', () => {
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('600', now)).toBe(60_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('reportError with machine output', () => {
  it('writes an error body nested past what JSON.stringify walks as its decoded envelope, one line, no stack', () => {
    const raw =
      '{"error_code":"INVALID_REQUEST","error_message":"bad","extra":' +
      '['.repeat(5000) +
      ']'.repeat(5000) +
      '}';
    const error = new ApiError(400, decodeErrorEnvelope(raw)!, raw, true);
    let stderr = '';
    const io = { stderr: { write: (text: string) => (stderr += text) } } as unknown as IO;
    expect(reportError(error, io, { jsonErrors: true, debug: false })).toBe(6);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(stderr)).toMatchObject({
      error_code: 'INVALID_REQUEST',
      error_message: 'bad',
    });
  });
});
