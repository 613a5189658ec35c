// What every area of the emulated service shares: the shape of a route and of a call to it.
import { ApiError } from './errors.js';
import type { Reply, RequestBody } from './http.js';
import type { KeyIdentity, KeyRing } from './keys.js';
import type { MockStore } from './store.js';

export interface ApiRequest {
  method: string;
  url: URL;
  authorization: string | undefined;
  contentType: string | undefined;
  body: RequestBody;
  /** Where the mock is reachable, for links in replies (no trailing slash). */
  baseUrl: string;
}

export interface ApiDeps {
  store: MockStore;
  keys: KeyRing;
}

export interface Call {
  request: ApiRequest;
  key: KeyIdentity;
  /** Path parameters, URL-decoded. */
  params: string[];
  store: MockStore;
}

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  scope?: 'FULL';
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
