// Error classes and the exit codes they carry (docs/reference/exit-codes.md). Every failure the
// user can cause ends up as one of these, and main.ts is the one place that turns them into a
// message and an exit code; which codes of the service mean which exit is service/errors.ts.

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

/**
 * What went wrong with a request, beyond its message: the reporter says what to do about each, so
 * the advice lives in one place. A layer that knows more troubles adds them to Troubles by
 * declaration merging (service/errors.ts); core knows those of any network request.
 */
export interface Troubles {
  network: NetworkTrouble;
}

export type Trouble = Troubles[keyof Troubles];

/** A request that never got a reply: no connection, no HTTP, or a proxy in the way. */
export type NetworkTrouble =
  | { kind: 'timeout' | 'dns' | 'refused' | 'not-http' | 'tls' }
  | { kind: 'proxy-refused' | 'proxy-dns'; variable: string }
  | { kind: 'proxy-auth'; variable: string; credentialsGiven: boolean };

/**
 * A command line that cannot be run, as the parser found it (src/core/program/svc-command.ts):
 * the reporter phrases each (report-error.ts `usageErrorFor`), so every one reads the same way.
 * `command` is the command's path (`svc reports list`), `usage` its usage line, `near` the
 * nearest names to what was typed ("did you mean").
 */
export type Mistake =
  | { kind: 'unknown-command'; name: string; command: string; near: readonly string[] }
  | { kind: 'unknown-flag'; flag: string; command: string; near: readonly string[] }
  /**
   * `what` is a flag (`--status`) or an argument (`SHELL`); `takes` what it takes: "one of bash,
   * zsh, fish".
   */
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

export class NetworkError extends CliError {
  constructor(message: string, trouble?: NetworkTrouble, hints: string[] = []) {
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
