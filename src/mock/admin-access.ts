// Who may call the mock's /_mock/ routes (docs/reference/local-service.md, "svc mock"): they read
// the request log, queue faults (a fault can make `svc connect --open` open any page) and register
// webhook endpoints (which then receive every event, reports included). Listening on loopback is
// not enough to keep them private:
//  - any web page can send a cross-origin POST with a text/plain body, which needs no preflight;
//  - a page whose DNS name is rebound to 127.0.0.1 reaches the mock with its own name in the Host;
//  - any process of any user on this machine can connect.
// So a request must be addressed to the mock's own address, come from no other web origin, carry
// one of the mock's keys (as /v1 does), and send a POST's body as JSON (no form or text/plain body
// a page can send without a preflight). All of it is decided from the headers, before a byte of the
// body is read.
import { ApiError } from './errors.js';
import type { KeyIdentity, KeyRing } from './keys.js';

/** What the mock is reached as: `127.0.0.1:8787` (its listening address) and `localhost:8787`. */
export class OwnAddress {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(listenHost: string, port: number) {
    const names = [listenHost.includes(':') ? `[${listenHost}]` : listenHost, 'localhost'].map(
      (name) => name.toLowerCase(),
    );
    // A client leaves the port out of Host only when it is the scheme's default.
    const hosts = names.flatMap((name) =>
      port === 80 ? [`${name}:${port}`, name] : [`${name}:${port}`],
    );
    this.hosts = new Set(hosts);
    this.origins = new Set(hosts.map((host) => `http://${host}`));
  }

  isOwnHost(host: string | undefined): boolean {
    return host !== undefined && this.hosts.has(host.toLowerCase());
  }

  isOwnOrigin(origin: string): boolean {
    return this.origins.has(origin.toLowerCase());
  }

  /** For messages: the names it answers to. */
  get names(): string[] {
    return [...this.hosts];
  }
}

export interface AdminCaller {
  method: string;
  /** The Host header, absent in HTTP/1.0. */
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
}

/** The key of an admitted caller; an ApiError (answered at once, the body unread) otherwise. */
export function admitAdminCaller(caller: AdminCaller, own: OwnAddress, keys: KeyRing): KeyIdentity {
  if (!own.isOwnHost(caller.host)) {
    // To a page of another name these endpoints do not exist.
    const addressee =
      caller.host === undefined ? 'no Host header' : `Host ${JSON.stringify(caller.host)}`;
    throw new ApiError(
      'NOT_FOUND',
      `The /_mock/ endpoints answer only requests addressed to ${own.names.join(' or ')}; this one had ${addressee}.`,
    );
  }
  if (caller.origin !== undefined && !own.isOwnOrigin(caller.origin)) {
    throw new ApiError(
      'FOREIGN_ORIGIN',
      `The /_mock/ endpoints do not answer web pages of another origin; this request came from ${JSON.stringify(caller.origin)}.`,
    );
  }
  const key = keys.authenticate(caller.authorization);
  if (!key) {
    const sent =
      caller.authorization === undefined
        ? 'no API key was sent'
        : 'the API key is not one of its keys';
    throw new ApiError(
      'INVALID_API_KEY',
      `The /_mock/ endpoints answer only requests with one of this mock's keys (Authorization: Bearer <key>), as /v1 does; ${sent}.`,
    );
  }
  if (caller.method === 'POST' && !isJson(caller.contentType)) {
    const sent = caller.contentType === undefined ? 'none' : JSON.stringify(caller.contentType);
    throw new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      `A POST to the /_mock/ endpoints sends JSON with Content-Type: application/json; this one's content type was ${sent}.`,
    );
  }
  return key;
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(?:;|$)/i.test(contentType.trim());
}
