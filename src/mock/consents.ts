// Consents: an organisation shares the views of one report with a third party (a bank's loan desk)
// through a link that carries a token and needs no API key. The token is shown once, at creation,
// and kept only as a hash; every read of the data is counted. Consents belong to the organisation
// whose key made them.
import { type Clock, DAY_MS, isoSeconds } from './dates.js';
import { ApiError } from './errors.js';
import type { SharedScope } from './lending/granted.js';
import { matchesHash, newId, newToken, tokenHash } from './tokens.js';

export type ConsentStatus = 'active' | 'revoked' | 'expired';

export interface Consent {
  id: string;
  organization_id: string;
  report_id: string;
  scopes: SharedScope[];
  grantee_label: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  token_hash: string;
  /** Reads of the data, and the last one. */
  reads: number;
  last_read_at: string | null;
}

export interface NewConsent {
  report_id: string;
  scopes: SharedScope[];
  grantee_label: string | null;
  expires_in_days: number;
}

export class ConsentBook {
  /** By id, oldest first. */
  private readonly consents = new Map<string, Consent>();
  /** Each organisation's, oldest first. */
  private readonly byOrganization = new Map<string, Consent[]>();

  constructor(private readonly clock: Clock) {}

  /** The new consent and its token, which is not kept. */
  create(organizationId: string, request: NewConsent): { consent: Consent; token: string } {
    const now = this.clock().getTime();
    const token = newToken('cst');
    const consent: Consent = {
      id: newId('cns'),
      organization_id: organizationId,
      report_id: request.report_id,
      scopes: request.scopes,
      grantee_label: request.grantee_label,
      created_at: isoSeconds(new Date(now)),
      expires_at: isoSeconds(new Date(now + request.expires_in_days * DAY_MS)),
      revoked_at: null,
      token_hash: tokenHash(token),
      reads: 0,
      last_read_at: null,
    };
    this.consents.set(consent.id, consent);
    let own = this.byOrganization.get(organizationId);
    if (!own) this.byOrganization.set(organizationId, (own = []));
    own.push(consent);
    return { consent, token };
  }

  /** The organisation's consents, newest first. */
  list(organizationId: string): Consent[] {
    return [...(this.byOrganization.get(organizationId) ?? [])].reverse();
  }

  /** Revoking a revoked consent changes nothing. */
  revoke(organizationId: string, id: string): Consent {
    const consent = this.consents.get(id);
    if (!consent || consent.organization_id !== organizationId) throw notFound(id);
    consent.revoked_at ??= isoSeconds(this.clock());
    return consent;
  }

  /**
   * The consent whose data a token holder reads, the read counted. The token is checked before
   * the state, so that a wrong token learns nothing about the consent.
   */
  read(id: string, token: string | null): Consent {
    const consent = this.consents.get(id);
    if (!consent) throw notFound(id);
    if (!matchesHash(token, consent.token_hash)) {
      throw new ApiError(
        'INVALID_CONSENT_TOKEN',
        token
          ? 'The token does not open this consent.'
          : 'The consent data link needs its token: ?token=…',
      );
    }
    const status = this.status(consent);
    if (status !== 'active') {
      const when =
        status === 'revoked'
          ? `was revoked at ${consent.revoked_at}`
          : `expired at ${consent.expires_at}`;
      throw new ApiError('consent_inactive', `Consent '${id}' ${when}.`, {
        displayMessage: 'This consent link is no longer active.',
      });
    }
    consent.reads += 1;
    consent.last_read_at = isoSeconds(this.clock());
    return consent;
  }

  status(consent: Consent): ConsentStatus {
    if (consent.revoked_at) return 'revoked';
    return Date.parse(consent.expires_at) <= this.clock().getTime() ? 'expired' : 'active';
  }
}

function notFound(id: string): ApiError {
  return new ApiError('CONSENT_NOT_FOUND', `No consent with id '${id}'.`);
}
