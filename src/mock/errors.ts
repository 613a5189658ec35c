// The service's flat error envelope, and the table of every error the mock can answer with. The
// documents show the envelope, `req_` + 32 hex request ids, documentation links by code, and a few
// codes (INVALID_API_KEY, consent_inactive, IDEMPOTENCY_IN_PROGRESS, IDEMPOTENCY_KEY_REUSED); the
// other codes, their statuses and types are the mock's own (src/mock/fixtures/README.md lists
// them).
import { randomBytes } from 'node:crypto';

interface ErrorKind {
  status: number;
  type: string;
  suggestedAction: string;
}

const UNREADABLE_UPLOAD = 'Upload the original statement PDF as issued by the bank or wallet.';

/** One row per error_code: its HTTP status, error_type and the advice sent with it. */
export const ERROR_KINDS = {
  INVALID_API_KEY: {
    status: 401,
    type: 'AUTHENTICATION_ERROR',
    suggestedAction: 'Check your API key in the Authorization header.',
  },
  INVALID_CONSENT_TOKEN: {
    status: 401,
    type: 'AUTHENTICATION_ERROR',
    suggestedAction: 'Use the data_url exactly as it was given when the consent was created.',
  },
  INVALID_ACCESS_TOKEN: {
    status: 401,
    type: 'AUTHENTICATION_ERROR',
    suggestedAction: 'Send the access token of this grant in the X-Svc-Access-Token header.',
  },
  INSUFFICIENT_SCOPE: {
    status: 403,
    type: 'PERMISSION_ERROR',
    suggestedAction: 'Use an API key with the FULL scope for this operation.',
  },
  FOREIGN_ORIGIN: {
    status: 403,
    type: 'PERMISSION_ERROR',
    suggestedAction: 'Call the /_mock/ endpoints from svc or a script, not from a web page.',
  },
  TEST_KEY_REQUIRED: {
    status: 403,
    type: 'PERMISSION_ERROR',
    suggestedAction: 'Use a test key (svc_sk_test_...) for sandbox operations.',
  },
  // Lower case, as the documents write it.
  consent_inactive: {
    status: 403,
    type: 'PERMISSION_ERROR',
    suggestedAction: 'Ask the report owner for a new consent.',
  },
  NOT_FOUND: {
    status: 404,
    type: 'NOT_FOUND_ERROR',
    suggestedAction: 'Check the request path against the API reference.',
  },
  REPORT_NOT_FOUND: {
    status: 404,
    type: 'NOT_FOUND_ERROR',
    suggestedAction:
      'Check the report id; reports are visible only to the organization that created them.',
  },
  CONSENT_NOT_FOUND: {
    status: 404,
    type: 'NOT_FOUND_ERROR',
    suggestedAction:
      'Check the consent id; consents are visible only to the organization that created them.',
  },
  GRANT_NOT_FOUND: {
    status: 404,
    type: 'NOT_FOUND_ERROR',
    suggestedAction:
      'Check the grant id; grants are visible only to the organization that exchanged them.',
  },
  DECISION_NOT_FOUND: {
    status: 404,
    type: 'NOT_FOUND_ERROR',
    suggestedAction: 'Record the decision with POST /v1/decisions before its outcome.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Use one of the methods listed in the Allow header.',
  },
  INVALID_REQUEST: {
    status: 400,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Fix the request parameters and try again.',
  },
  INVALID_PUBLIC_TOKEN: {
    status: 400,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction:
      'Exchange the public_token of a new Connect approval, once, within 30 minutes.',
  },
  UNSUPPORTED_FILE_TYPE: {
    status: 400,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Upload the statement as a PDF, JPEG or PNG file.',
  },
  FILE_TOO_LARGE: {
    status: 413,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Upload a file of at most 20 MB.',
  },
  REQUEST_TOO_LARGE: {
    status: 413,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Send a smaller body.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Send the body as JSON, with Content-Type: application/json.',
  },
  DOCUMENT_PARSE_FAILED: {
    status: 400,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: UNREADABLE_UPLOAD,
  },
  TAMPER_DETECTED: {
    status: 400,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Ask the account holder for the original statement as issued by the bank.',
  },
  UNSUPPORTED_BANK: {
    status: 422,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction:
      'Check the list of supported banks and wallets; send bank=auto or one of their codes.',
  },
  UNSUPPORTED_DOCUMENT: {
    status: 422,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: UNREADABLE_UPLOAD,
  },
  PASSWORD_REQUIRED: {
    status: 422,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Remove the password from the PDF and upload it again.',
  },
  IMAGE_NOT_READABLE: {
    status: 422,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Upload a sharper, complete photo of every page, or the original PDF.',
  },
  REPORT_NOT_READY: {
    status: 409,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction: 'Wait until the report status is complete, then retry.',
  },
  DECISION_EXISTS: {
    status: 409,
    type: 'INVALID_REQUEST_ERROR',
    suggestedAction:
      'Use a new client_reference_id, or record an outcome for the existing decision.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    type: 'IDEMPOTENCY_ERROR',
    suggestedAction: 'Wait for the first request with this Idempotency-Key to finish, then retry.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    type: 'IDEMPOTENCY_ERROR',
    suggestedAction: 'Use a new Idempotency-Key for a request with different parameters.',
  },
  QUOTA_EXCEEDED: {
    status: 429,
    type: 'RATE_LIMIT_ERROR',
    suggestedAction: 'Wait for the quota to reset or upgrade the plan.',
  },
  API_ERROR: {
    status: 500,
    type: 'API_ERROR',
    suggestedAction: 'Retry later; contact support with the request_id if it persists.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    type: 'API_ERROR',
    suggestedAction: 'Retry after the number of seconds in the Retry-After header.',
  },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_KINDS;

/** Thrown by handlers; the server turns it into the envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly displayMessage: string | null;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { displayMessage?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_KINDS[code].status;
    this.displayMessage = options.displayMessage ?? null;
    this.headers = options.headers ?? {};
  }
}

export interface ErrorEnvelope {
  error_type: string;
  error_code: string;
  error_message: string;
  display_message: string | null;
  request_id: string;
  documentation_url: string;
  suggested_action: string;
}

/** What an envelope says, before the request it answers gives it an id and a link. */
export type ErrorFields = Omit<ErrorEnvelope, 'request_id' | 'documentation_url'>;

export function errorFields(error: ApiError): ErrorFields {
  const kind = ERROR_KINDS[error.code];
  return {
    error_type: kind.type,
    error_code: error.code,
    error_message: error.message,
    display_message: error.displayMessage,
    suggested_action: kind.suggestedAction,
  };
}

/** The documented field order: type, code, message, display message, request id, link, advice. */
export function errorEnvelope(
  fields: ErrorFields,
  requestId: string,
  baseUrl: string,
): ErrorEnvelope {
  return {
    error_type: fields.error_type,
    error_code: fields.error_code,
    error_message: fields.error_message,
    display_message: fields.display_message,
    request_id: requestId,
    documentation_url: `${docsUrl(baseUrl)}/concepts/errors#${fields.error_code.toLowerCase()}`,
    suggested_action: fields.suggested_action,
  };
}

/** The mock's stand-in for {docs_url}. */
export function docsUrl(baseUrl: string): string {
  return `${baseUrl}/docs`;
}

/**
 * Random hex for request ids, drawn for 256 ids at a time: a call into the random source for each
 * request costs more than the rest of a small reply's bookkeeping.
 */
const ID_HEX = 32;
let idPool = '';
let idOffset = 0;

/** `req_` and 32 hex characters, as the documents show. */
export function newRequestId(): string {
  if (idOffset === idPool.length) {
    idPool = randomBytes((256 * ID_HEX) / 2).toString('hex');
    idOffset = 0;
  }
  idOffset += ID_HEX;
  return `req_${idPool.slice(idOffset - ID_HEX, idOffset)}`;
}
