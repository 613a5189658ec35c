// The service's failures: THE table of its error codes, error types and HTTP statuses
// by exit code (docs/reference/exit-codes.md), and the errors of a refused request.
import { CliError, EXIT } from '../core/errors.js';
import { ReplyHeaders } from '../core/reply-headers.js';

/** The troubles of a request the service refused, each with its own advice (report-error.ts). */
export type ServiceTrouble =
  /** A retried POST found its own earlier attempt still running on the service. */
  | { kind: 'still-running' }
  /** A token alone, no key, was refused (consent data). */
  | { kind: 'token-only' }
  /** The access token of a grant was refused, not the key. */
  | { kind: 'access-token' }
  /** The service refused the API key in force; `source` says where it came from (never the key). */
  | KeyRefused;

export interface KeyRefused {
  kind: 'key-refused';
  source: 'flag' | 'env' | 'profile';
  profile: string;
}

declare module '../core/errors.js' {
  interface Troubles {
    service: ServiceTrouble;
  }
}

export interface ExitCodeRow {
  exit: number;
  meaning: string;
  errorCodes: readonly string[];
  errorTypes: readonly string[];
  statuses: readonly number[];
  /** 5xx: any status from 500 to 599. */
  serverErrors?: boolean;
}

/** The decoded error envelope of a failed reply. */
export interface ApiErrorEnvelope {
  error_type?: string;
  error_code: string;
  error_message?: string;
  display_message?: string | null;
  request_id?: string;
  documentation_url?: string;
  suggested_action?: string;
}

export const EXIT_CODES: readonly ExitCodeRow[] = [
  { exit: 0, meaning: 'success', errorCodes: [], errorTypes: [], statuses: [] },
  { exit: 1, meaning: 'unclassified failure', errorCodes: [], errorTypes: [], statuses: [] },
  {
    exit: 2,
    meaning: 'usage: bad command line, bad local input, missing configuration; no request was sent',
    errorCodes: [],
    errorTypes: [],
    statuses: [],
  },
  {
    exit: 3,
    meaning: 'authentication',
    errorCodes: ['INVALID_API_KEY'],
    errorTypes: ['AUTHENTICATION_ERROR'],
    statuses: [401],
  },
  {
    exit: 4,
    meaning: 'permission',
    errorCodes: ['INSUFFICIENT_SCOPE', 'TEST_KEY_REQUIRED'],
    errorTypes: ['PERMISSION_ERROR'],
    statuses: [403],
  },
  {
    exit: 5,
    meaning: 'not found',
    errorCodes: ['NOT_FOUND', 'REPORT_NOT_FOUND'],
    errorTypes: [],
    statuses: [404],
  },
  {
    exit: 6,
    meaning: 'rejected as invalid',
    errorCodes: ['INVALID_REQUEST', 'DOCUMENT_PARSE_FAILED'],
    errorTypes: ['INVALID_REQUEST_ERROR'],
    statuses: [400, 409, 422],
  },
  {
    exit: 7,
    meaning: 'rate limited or quota used up',
    errorCodes: ['RATE_LIMITED', 'QUOTA_EXCEEDED'],
    errorTypes: ['RATE_LIMIT_ERROR'],
    statuses: [429],
  },
  {
    exit: 8,
    meaning: 'service failure',
    errorCodes: [],
    errorTypes: ['API_ERROR'],
    statuses: [],
    serverErrors: true,
  },
  {
    exit: 9,
    meaning: 'network: DNS, refused, reset, TLS, timeout',
    errorCodes: [],
    errorTypes: [],
    statuses: [],
  },
  {
    exit: 10,
    meaning: 'unexpected reply: not JSON, or not the documented shape',
    errorCodes: [],
    errorTypes: [],
    statuses: [],
  },
  {
    exit: 129,
    meaning: 'stopped: the terminal closed (SIGHUP)',
    errorCodes: [],
    errorTypes: [],
    statuses: [],
  },
  { exit: 130, meaning: 'interrupted (Ctrl-C)', errorCodes: [], errorTypes: [], statuses: [] },
  {
    exit: 143,
    meaning: 'stopped by SIGTERM (kill, timeout)',
    errorCodes: [],
    errorTypes: [],
    statuses: [],
  },
];

/**
 * Decides the exit code of an API failure: error_code first, then error_type, then the HTTP status.
 */
export function exitCodeFor(
  errorCode: string | undefined,
  errorType: string | undefined,
  status: number,
): number {
  if (errorCode) {
    const row = EXIT_CODES.find((r) => r.errorCodes.includes(errorCode));
    if (row) return row.exit;
  }
  if (errorType) {
    const row = EXIT_CODES.find((r) => r.errorTypes.includes(errorType));
    if (row) return row.exit;
  }
  const row = EXIT_CODES.find(
    (r) => r.statuses.includes(status) || (r.serverErrors && status >= 500 && status <= 599),
  );
  return row ? row.exit : EXIT.failure;
}

export class MissingKeyError extends CliError {
  constructor(message: string, hints: string[] = []) {
    super(message, EXIT.auth, hints);
  }
}

export class PermissionDeniedError extends CliError {
  constructor(message: string, hints: string[] = []) {
    super(message, EXIT.permission, hints);
  }
}

export class ApiError extends CliError {
  constructor(
    readonly status: number,
    /** The envelope when the body carried one, else a synthetic one built from the status. */
    readonly envelope: ApiErrorEnvelope,
    /** The reply body exactly as received, for `svc api` and `--json` diagnostics. */
    readonly rawBody: string,
    /** Whether the body really was an error envelope (otherwise it was e.g. an HTML page). */
    readonly fromEnvelope: boolean,
    readonly headers: ReplyHeaders = new ReplyHeaders(),
  ) {
    super(
      `${envelope.error_code}: ${envelope.error_message ?? `HTTP ${status}`}`,
      exitCodeFor(fromEnvelope ? envelope.error_code : undefined, envelope.error_type, status),
    );
  }
}
