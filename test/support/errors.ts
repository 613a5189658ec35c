// Failures as tests check them: a usage error refused before any request, the service's error
// envelope a fake service answers with, and an error reply of svc mock.
import { expect } from 'vitest';

import { expectFailure, type InProcessResult, unwrapped } from './in-process.js';

/**
 * A usage error: exit 2, the one `error:` line first on stderr matching `message`, found before any
 * request was sent. `clean` takes what else a command draws on stderr (a spinner) first.
 */
export function expectRefused(
  result: InProcessResult,
  message: RegExp,
  clean?: (stderr: string) => string,
): void {
  expectFailure(result, 2, message, clean);
  const first = unwrapped(result.stderr).split('\n')[0];
  expect(first).toMatch(/^error: /);
  expect(first).toMatch(message);
  expect(result.requests).toEqual([]);
}

/**
 * The service's documented error envelope (error-flat.json), with a request id; an undefined type
 * is left out of the JSON.
 */
export function envelope(
  type: string | undefined,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return {
    error_type: type,
    error_code: code,
    error_message: message,
    display_message: null,
    request_id: 'req_0123456789abcdef0123456789abcdef',
    ...extra,
  };
}

/** A reply of svc mock, as a test's fetch reads it. */
export interface MockReply {
  status: number;
  body: any;
  headers?: Headers;
  /** The address asked: the documentation URL is the mock's own. */
  url?: string;
}

/**
 * An error reply of svc mock: the status, the envelope's fields, its code (and type, when given)
 * and its request id, which the X-Request-Id header repeats; the documentation URL is the mock's
 * page of the code.
 */
export function expectError(reply: MockReply, status: number, code: string, type?: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(Object.keys(reply.body).sort()).toEqual([
    'display_message',
    'documentation_url',
    'error_code',
    'error_message',
    'error_type',
    'request_id',
    'suggested_action',
  ]);
  expect(reply.body.error_code).toBe(code);
  if (type) expect(reply.body.error_type).toBe(type);
  expect(reply.body.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  if (reply.headers) expect(reply.headers.get('x-request-id')).toBe(reply.body.request_id);
  const page = `/docs/concepts/errors#${code.toLowerCase()}`;
  if (reply.url) expect(reply.body.documentation_url).toBe(`${new URL(reply.url).origin}${page}`);
  else expect(reply.body.documentation_url.endsWith(page)).toBe(true);
}
