// The checks of `svc consents …`: each failure is a usage error (exit 2) before any request.
// Pure: flags in, request parts out.
import { ENDPOINTS, type Target, target } from '../../api/endpoints.js';
import { UsageError } from '../../core/errors.js';
import { commaList } from '../../core/program/typed-options.js';
import { checkId } from '../args.js';

/** What a consent may open (the service's documentation, POST /v1/consents). */
export const CONSENT_SCOPES = [
  'identity',
  'income',
  'liabilities',
  'verify',
  'transactions',
] as const;
export type ConsentScope = (typeof CONSENT_SCOPES)[number];

export interface ConsentFlags {
  /** The items of --scopes (listOption, index.ts), or the text of such a list. */
  scopes?: string | readonly string[];
  granteeLabel?: string;
  /** Checked by its declaration (integerOption, index.ts). */
  expiresInDays?: number;
}

export interface ConsentBody {
  report_id: string;
  scopes: ConsentScope[];
  grantee_label?: string;
  expires_in_days?: number;
}

/** The body of POST /v1/consents; absent options are left out. */
export function consentBody(reportId: string, flags: ConsentFlags): ConsentBody {
  const report = checkId(reportId, 'report id');
  const scopes = consentScopes(flags.scopes);
  const label = flags.granteeLabel;
  if (label !== undefined && label.trim() === '')
    throw new UsageError(
      '--grantee-label is empty: name who receives the data, e.g. --grantee-label "Nabil Bank loan desk"',
    );
  const days = flags.expiresInDays;
  return {
    report_id: report,
    scopes,
    ...(label !== undefined && { grantee_label: label }),
    ...(days !== undefined && { expires_in_days: days }),
  };
}

/** `identity,income` → the scopes, each known, each once, in the order given. */
export function consentScopes(list: string | readonly string[] | undefined): ConsentScope[] {
  const names = typeof list === 'string' ? commaList(list) : (list ?? []);
  if (names.length === 0)
    throw new UsageError(`--scopes is empty: name at least one of ${CONSENT_SCOPES.join(', ')}`);
  for (const name of names) {
    if (!(CONSENT_SCOPES as readonly string[]).includes(name))
      throw new UsageError(
        `--scopes takes scopes from ${CONSENT_SCOPES.join(', ')}, not "${name}"`,
      );
  }
  return [...new Set(names)] as ConsentScope[];
}

/** GET /v1/consents/{id}/data?token=…: the call and its query. */
/**
 * The request that reads a consent's data; the token goes in its query (consents/data.ts reads it).
 */
export function consentDataRequest(id: string): Target {
  return target(ENDPOINTS.consentData, { consent_id: id });
}
