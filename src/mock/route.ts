// What every area of the emulated service shares: the shape of a route and of a call to it.
import type { Clock } from './dates.js';
import { ApiError } from './errors.js';
import type { Reply, RequestBody } from './http.js';
import type { KeyIdentity, KeyRing } from './keys.js';
import type { ConnectRequest } from './routes/connect.js';
import type { MockStore } from './store.js';
import type { WebhookSender } from './webhooks.js';

export interface ApiRequest {
  method: string;
  url: URL;
  authorization: string | undefined;
  contentType: string | undefined;
  body: RequestBody;
  /** Where the mock is reachable, for links in replies (no trailing slash). */
  baseUrl: string;
}

/** What one running mock holds: its state and the services its handlers use. */
export interface ApiDeps {
  store: MockStore;
  keys: KeyRing;
  webhooks: WebhookSender;
  /** Connect requests waiting for the end user, by request token. */
  connectRequests: Map<string, ConnectRequest>;
  clock: Clock;
}

export interface Call extends Omit<ApiDeps, 'keys'> {
  request: ApiRequest;
  key: KeyIdentity;
  /** Path parameters, URL-decoded. */
  params: string[];
}

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  scope?: 'FULL';
  /** `test`: live keys are refused (every /v1/sandbox/* route). */
  keyMode?: 'test';
  handle: (call: Call) => Reply;
}

/** A path parameter: one segment. */
export const SEGMENT = '([^/]+)';

export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape cannot name anything; the lookup will 404
  }
}

export function invalid(message: string): ApiError {
  return new ApiError('INVALID_REQUEST', message);
}
