// Calls to svc mock's /_mock/ routes as a test makes them: with one of the mock's keys (the routes
// answer no one else) and JSON bodies, from no web page. Shared by unit and end-to-end tests.
import { keyOf } from './keys.js';

interface MockLike {
  url: string;
  keys: readonly { key: string; organization_id?: string; mode: string; scope: string }[];
}

export interface AdminCall {
  method?: string;
  /** Sent as JSON, with Content-Type: application/json. */
  json?: unknown;
  /** The key to send; the mock's first test key with the FULL scope by default. */
  key?: string;
}

/**
 * The mock's first test key with the FULL scope: the one the webhooks guide
 * (docs/guides/webhooks-and-ci.md) exports.
 */
export function testKeyOf(mock: MockLike): string {
  return keyOf(mock);
}

const methodOf = (call: AdminCall) => call.method ?? (call.json === undefined ? 'GET' : 'POST');

export function mockAdmin(mock: MockLike, path: string, call: AdminCall = {}): Promise<Response> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${call.key ?? testKeyOf(mock)}`,
  };
  if (call.json !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(`${mock.url}${path}`, {
    method: methodOf(call),
    headers,
    body: call.json === undefined ? undefined : JSON.stringify(call.json),
  });
}

/** The reply's JSON, failing the test on a status other than 2xx. */
export async function mockAdminJson<T = unknown>(
  mock: MockLike,
  path: string,
  call: AdminCall = {},
): Promise<T> {
  const reply = await mockAdmin(mock, path, call);
  const text = await reply.text();
  if (!reply.ok) throw new Error(`${methodOf(call)} ${path} answered ${reply.status}: ${text}`);
  return JSON.parse(text) as T;
}
