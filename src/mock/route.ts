// What every area of the emulated service shares: the shape of a route and of a call to it.
import type { ConsentBook } from './consents.js';
import type { Clock } from './dates.js';
import type { DecisionBook } from './decisions.js';
import { ApiError } from './errors.js';
import type { ConnectFlows } from './grants.js';
import type { Reply, RequestBody } from './http.js';
import type { KeyIdentity, KeyRing } from './keys.js';
import type { MockStore } from './store.js';
import type { WebhookSender } from './webhooks.js';

export interface ApiRequest {
  method: string;
  url: URL;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The X-Svc-Access-Token header: a Connect grant's access token. */
  accessToken: string | undefined;
  body: RequestBody;
  /** Where the mock is reachable, for links in replies (no trailing slash). */
  baseUrl: string;
}

/** What one running mock holds: its state and the services its handlers use. */
export interface ApiDeps {
  store: MockStore;
  keys: KeyRing;
  webhooks: WebhookSender;
  /** Connect requests, their public tokens and the grants they became. */
  connect: ConnectFlows;
  consents: ConsentBook;
  decisions: DecisionBook;
  clock: Clock;
}

export interface Call extends Omit<ApiDeps, 'keys'> {
  request: ApiRequest;
  key: KeyIdentity;
  /** Path parameters, URL-decoded. */
  params: string[];
}

/** A call that needs no API key: a token in the request stands in for it. */
export type KeylessCall = Omit<Call, 'key'>;

interface RouteBase {
  method: 'GET' | 'POST';
  pattern: RegExp;
}

/** Called with an API key of the organisation whose data it reads. */
export interface KeyedRoute extends RouteBase {
  access?: 'key';
  scope?: 'FULL';
  /** `test`: live keys are refused (every /v1/sandbox/* route). */
  keyMode?: 'test';
  handle: (call: Call) => Reply;
}

/** Called without a key (a consent's data link): the handler checks the token it carries. */
export interface KeylessRoute extends RouteBase {
  access: 'token';
  handle: (call: KeylessCall) => Reply;
}

export type Route = KeyedRoute | KeylessRoute;

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
