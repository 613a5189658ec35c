// Error classes and THE exit-code table (docs/reference/exit-codes.md). Every failure the user can cause ends up
// as one of these, and main.ts is the one place that turns them into a message and an exit code.
import { ReplyHeaders } from './reply-headers.js';

export interface ExitCodeRow {
  exit: number;
  meaning: string;
  errorCodes: readonly string[];
  errorTypes: readonly string[];
  statuses: readonly number[];
  /** 5xx: any status from 500 to 599. */
  serverErrors?: boolean;
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

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  permission: 4,
  notFound: 5,
  invalid: 6,
  rateLimited: 7,
  service: 8,
  network: 9,
  unexpectedReply: 10,
  interrupted: 130,
} as const;

/** Decides the exit code of an API failure: error_code first, then error_type, then the HTTP status. */
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

/**
 * What went wrong with a request, beyond its message: the reporter (report-error.ts) says what to
 * do about each, so the advice lives in one place.
 */
export type Trouble =
  | { kind: 'timeout' | 'dns' | 'refused' | 'not-http' | 'tls' }
  | { kind: 'proxy-refused' | 'proxy-dns'; variable: string }
  | { kind: 'proxy-auth'; variable: string; credentialsGiven: boolean }
  /** A retried POST found its own earlier attempt still running on the service. */
  | { kind: 'still-running' }
  /** A token alone, no key, was refused (consent data). */
  | { kind: 'token-only' }
  /** The access token of a grant was refused, not the key. */
  | { kind: 'access-token' }
  /** The service refused the API key in force; `source` says where it came from (never the key). */
  | { kind: 'key-refused'; source: 'flag' | 'env' | 'profile'; profile: string };

/**
 * A command line that cannot be run, as the parser found it (src/core/program/svc-command.ts):
 * the reporter phrases each (report-error.ts `usageErrorFor`), so every one reads the same way.
 * `command` is the command's path (`svc reports list`), `usage` its usage line, `near` the
 * nearest names to what was typed ("did you mean").
 */
export type Mistake =
  | { kind: 'unknown-command'; name: string; command: string; near: readonly string[] }
  | { kind: 'unknown-flag'; flag: string; command: string; near: readonly string[] }
  /** `what` is a flag (`--status`) or an argument (`SHELL`); `takes` what it takes: "one of bash, zsh, fish". */
  | { kind: 'invalid-value'; what: string; value: string; takes: string; near: readonly string[] }
  | { kind: 'missing-argument'; argument: string; description: string; usage: string }
  /** A flag given without its value, last on the line (`--status`). */
  | {
      kind: 'missing-value';
      flag: string;
      description: string;
      choices?: readonly string[];
      usage: string;
    }
  /** A required flag not given (`--name` of `svc match`). */
  | {
      kind: 'missing-flag';
      flag: string;
      description: string;
      choices?: readonly string[];
      usage: string;
    }
  | {
      kind: 'excess-arguments';
      command: string;
      expected: readonly string[];
      received: readonly string[];
      usage: string;
    }
  /** Anything else the parser refused, in its own words. */
  | { kind: 'other'; message: string; usage: string };

/** Base of every error we expect: it carries its exit code and a one-line message. */
export class CliError extends Error {
  /** What went wrong, when the reporter has advice for it. */
  trouble?: Trouble;

  constructor(
    message: string,
    readonly exitCode: number,
    /** Extra lines printed after the message (hints); a caller that knows more may add some. */
    readonly hints: string[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad command line, bad local input, missing configuration: nothing was sent. */
export class UsageError extends CliError {
  constructor(message: string, hints: string[] = []) {
    super(message, EXIT.usage, hints);
  }
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

export class NetworkError extends CliError {
  constructor(message: string, trouble?: Trouble, hints: string[] = []) {
    super(message, EXIT.network, hints);
    this.trouble = trouble;
  }
}

export class UnexpectedReplyError extends CliError {
  constructor(message: string) {
    super(message, EXIT.unexpectedReply);
  }
}

export class InterruptedError extends CliError {
  constructor() {
    super('interrupted', EXIT.interrupted);
  }
}
