// Consents (FULL keys): share the views of one report through a link that needs no API key. As
// documented: create → {id, token, data_url, scopes, expires_at}; the data link answers
// {scopes, data} with the granted views only, and 403 consent_inactive once revoked. The list and
// revoke replies are the mock's own (fixtures/README.md).
import type { Consent, ConsentBook } from '../consents.js';
import { jsonObjectBody, optionalNumber, optionalString, requiredString } from '../fields.js';
import type { Reply } from '../http.js';
import { SHARED_SCOPES, sharedData, type SharedScope } from '../lending/granted.js';
import { type Call, invalid, type KeylessCall, type Route, SEGMENT } from '../route.js';

const DEFAULT_EXPIRY_DAYS = 30;
const MAX_EXPIRY_DAYS = 365;

export const consentRoutes: Route[] = [
  { method: 'POST', pattern: /^\/v1\/consents$/, scope: 'FULL', handle: createConsent },
  { method: 'GET', pattern: /^\/v1\/consents$/, scope: 'FULL', handle: listConsents },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/consents/${SEGMENT}/revoke$`),
    scope: 'FULL',
    handle: revokeConsent,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/consents/${SEGMENT}/data$`),
    access: 'token',
    handle: consentData,
  },
];

function createConsent({ request, key, store, consents }: Call): Reply {
  const fields = jsonObjectBody(
    request.body,
    '{"report_id": "rpt_…", "scopes": ["identity", "income"], "grantee_label": "Nabil Bank loan desk"}',
  );
  const reportId = requiredString(fields, 'report_id');
  const scopes = readScopes(fields.scopes);
  const granteeLabel = optionalString(fields, 'grantee_label', 200) ?? null;
  const days =
    optionalNumber(fields, 'expires_in_days', { min: 1, max: MAX_EXPIRY_DAYS, integer: true }) ??
    DEFAULT_EXPIRY_DAYS;
  // Only a report whose views can be read may be shared.
  store.completeReport(key.organization_id, reportId);
  const { consent, token } = consents.create(key.organization_id, {
    report_id: reportId,
    scopes,
    grantee_label: granteeLabel,
    expires_in_days: days,
  });
  const dataUrl = new URL(`/v1/consents/${consent.id}/data`, request.baseUrl);
  dataUrl.searchParams.set('token', token);
  return {
    status: 201,
    body: {
      id: consent.id,
      token,
      data_url: dataUrl.toString(),
      scopes: consent.scopes,
      expires_at: consent.expires_at,
    },
  };
}

function readScopes(value: unknown): SharedScope[] {
  if (!Array.isArray(value) || value.length === 0)
    throw invalid(`'scopes' is required: a non-empty array of ${SHARED_SCOPES.join(', ')}.`);
  for (const scope of value) {
    if (!SHARED_SCOPES.includes(scope as SharedScope))
      throw invalid(
        `Unknown scope ${JSON.stringify(scope)}; the scopes are ${SHARED_SCOPES.join(', ')}.`,
      );
  }
  return [...new Set(value as SharedScope[])];
}

function listConsents({ key, consents }: Call): Reply {
  return {
    status: 200,
    body: { data: consents.list(key.organization_id).map((c) => consentRecord(c, consents)) },
  };
}

function revokeConsent({ request, key, params, consents }: Call): Reply {
  // No body is needed; one that is sent must be a JSON object.
  if (request.body.size > 0) jsonObjectBody(request.body, '{}');
  return {
    status: 200,
    body: consentRecord(consents.revoke(key.organization_id, params[0]!), consents),
  };
}

/** GET /v1/consents/{id}/data?token=…: no key, the token alone. */
function consentData({ request, params, store, consents }: KeylessCall): Reply {
  const consent = consents.read(params[0]!, request.url.searchParams.get('token'));
  const report = store.completeReport(consent.organization_id, consent.report_id);
  return { status: 200, body: sharedData(report, store.bank(report.bank_code), consent.scopes) };
}

/** A consent as its owner sees it: everything but the token, which was shown once. */
function consentRecord(c: Consent, consents: ConsentBook) {
  return {
    id: c.id,
    report_id: c.report_id,
    scopes: c.scopes,
    grantee_label: c.grantee_label,
    status: consents.status(c),
    created_at: c.created_at,
    expires_at: c.expires_at,
    revoked_at: c.revoked_at,
    reads: c.reads,
    last_read_at: c.last_read_at,
  };
}
