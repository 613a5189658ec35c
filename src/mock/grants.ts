// The Connect flow's state. A caller's backend opens a request (POST /v1/connect/request); the end
// user approves it in the browser, which hands a one-time public token to the caller's redirect
// address; the backend exchanges that token (POST /v1/connect/exchange) for a grant and its access
// token, which reads the granted views (GET /v1/grants/{id}/data). Tokens are kept as hashes.
import { type Clock, isoSeconds } from './dates.js';
import { ApiError } from './errors.js';
import type { SharedScope } from './lending/granted.js';
import { matchesHash, newId, newToken, tokenHash } from './tokens.js';

/** What the Connect page shows of a request. */
export interface ConnectRequest {
  request_token: string;
  organization_name: string;
  scopes: SharedScope[];
  redirect_uri: string;
  created_at: string;
  expires_at: string;
}

export interface ConnectFlow {
  request: ConnectRequest;
  organization_id: string;
  status: 'pending' | 'approved';
}

interface PublicToken {
  organization_id: string;
  report_id: string;
  scopes: SharedScope[];
  expires_at: number;
  exchanged: boolean;
}

export interface Grant {
  grant_id: string;
  organization_id: string;
  report_id: string;
  scopes: SharedScope[];
  created_at: string;
  access_token_hash: string;
}

/** How long a public token may wait for its exchange (not documented). */
const PUBLIC_TOKEN_LIFETIME_MS = 30 * 60 * 1000;

/** Requests kept before expired ones are dropped; then twice as many as are left. */
const FIRST_SWEEP_AT = 1024;

export class ConnectFlows {
  /**
   * Connect requests, pending or approved; expired ones, which find() no longer returns, are
   * dropped now and then.
   */
  private readonly flows = new Map<string, ConnectFlow>();
  private sweepAt = FIRST_SWEEP_AT;
  /** By the token's hash. */
  private readonly publicTokens = new Map<string, PublicToken>();
  private readonly grants = new Map<string, Grant>();

  constructor(private readonly clock: Clock) {}

  open(organizationId: string, request: ConnectRequest): void {
    this.flows.set(request.request_token, {
      request,
      organization_id: organizationId,
      status: 'pending',
    });
    if (this.flows.size >= this.sweepAt) {
      for (const [token, flow] of this.flows) if (this.expired(flow)) this.flows.delete(token);
      this.sweepAt = Math.max(FIRST_SWEEP_AT, 2 * this.flows.size);
    }
  }

  /** Connect requests kept, pending or approved (expired ones not yet dropped included). */
  get requestsKept(): number {
    return this.flows.size;
  }

  /** A request the end user may still see: known and not expired. */
  find(requestToken: string): ConnectFlow | undefined {
    const flow = this.flows.get(requestToken);
    if (!flow || this.expired(flow)) return undefined;
    return flow;
  }

  /**
   * The end user's approval, sharing one report of the requesting organisation: a new public token.
   */
  approve(requestToken: string, reportId: string): string {
    const flow = this.flows.get(requestToken);
    if (!flow || flow.status !== 'pending')
      throw new Error(`no pending Connect request ${requestToken}`);
    flow.status = 'approved';
    const token = newToken('cpt');
    this.publicTokens.set(tokenHash(token), {
      organization_id: flow.organization_id,
      report_id: reportId,
      scopes: flow.request.scopes,
      expires_at: this.clock().getTime() + PUBLIC_TOKEN_LIFETIME_MS,
      exchanged: false,
    });
    return token;
  }

  /**
   * A public token of the organisation, used once: the grant and its access token (shown this
   * once).
   */
  exchange(organizationId: string, publicToken: string): { grant: Grant; accessToken: string } {
    const found = this.publicTokens.get(tokenHash(publicToken));
    // Another organisation's token is as unknown as a made-up one.
    if (!found || found.organization_id !== organizationId) throw invalidPublicToken('is unknown');
    if (found.exchanged)
      throw invalidPublicToken('was already exchanged: public tokens are single-use');
    if (found.expires_at < this.clock().getTime()) throw invalidPublicToken('has expired');
    found.exchanged = true;
    const accessToken = newToken('cat');
    const grant: Grant = {
      grant_id: newId('grt'),
      organization_id: organizationId,
      report_id: found.report_id,
      scopes: found.scopes,
      created_at: isoSeconds(this.clock()),
      access_token_hash: tokenHash(accessToken),
    };
    this.grants.set(grant.grant_id, grant);
    return { grant, accessToken };
  }

  /** A grant of the organisation, opened by its access token. */
  grant(organizationId: string, grantId: string, accessToken: string | undefined): Grant {
    const grant = this.grants.get(grantId);
    if (!grant || grant.organization_id !== organizationId) {
      throw new ApiError(
        'GRANT_NOT_FOUND',
        `No grant with id '${grantId}' exists for this organization.`,
      );
    }
    if (!matchesHash(accessToken, grant.access_token_hash)) {
      throw new ApiError(
        'INVALID_ACCESS_TOKEN',
        accessToken
          ? 'The access token does not open this grant.'
          : 'Send the access token of the grant in the X-Svc-Access-Token header.',
      );
    }
    return grant;
  }

  private expired(flow: ConnectFlow): boolean {
    return Date.parse(flow.request.expires_at) < this.clock().getTime();
  }
}

function invalidPublicToken(why: string): ApiError {
  return new ApiError('INVALID_PUBLIC_TOKEN', `The public token ${why}.`);
}
