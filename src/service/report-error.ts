// The one place that turns a failure into what the user reads on stderr and an exit code.
import { CliError, EXIT, type Trouble } from '../core/errors.js';
import { FALLBACK_COLUMNS, type IO } from '../core/io.js';
import { shownText } from '../core/output/format.js';
import { proseLines } from '../core/output/prose.js';
import type { Secrets } from '../core/secrets/secrets.js';
import { ApiError } from './errors.js';

/**
 * How the run's failure is reported (a Context has both); before a command runs, main.ts tells it.
 */
export interface ReportMode {
  /**
   * The error is one compact JSON line on stderr instead of text lines for a person: errorsAsJson.
   */
  readonly jsonErrors: boolean;
  readonly debug: boolean;
}

/**
 * docs/reference/exit-codes.md, "How a failure is reported": with a machine format (--json, --jq,
 * -o json|ndjson|csv) an error is one JSON line on stderr for the script that reads it; a person at
 * a terminal reads the text lines, even with stdout piped into jq.
 */
export function errorsAsJson(machineFormat: boolean, stderrIsTTY: boolean): boolean {
  return machineFormat && !stderrIsTTY;
}

const HINTS_BY_EXIT: Partial<Record<number, string>> = {
  [EXIT.auth]: 'Check the key with `svc whoami`, or save a new one with `svc login`.',
};

/** What to do about each trouble a request met. */
function adviceFor(trouble: Trouble): string {
  switch (trouble.kind) {
    case 'timeout':
      return 'Raise --timeout if the service is slow.';
    case 'dns':
      return 'Check the base URL and your network connection.';
    case 'refused':
      return 'Is the service running at that address?';
    case 'not-http':
      return 'Check the base URL: is it the service, on the right port?';
    case 'tls':
      return 'If a proxy intercepts TLS, set NODE_EXTRA_CA_CERTS to its certificate.';
    case 'proxy-refused':
      return `Is the proxy running? Check ${trouble.variable}, or unset it.`;
    case 'proxy-dns':
      return `Check ${trouble.variable}.`;
    case 'proxy-auth':
      return trouble.credentialsGiven
        ? `It did not accept the user and password in ${trouble.variable}.`
        : `Put them in ${trouble.variable}: http://user:password@host:port.`;
    case 'access-token':
      return 'The service refused the access token (--access-token or SVC_ACCESS_TOKEN), not the key: `svc connect exchange` gives a new one.';
    case 'token-only':
      return 'This request sends no API key: the token alone opens the data. Check --token; the consent may also be revoked or expired.';
    case 'key-refused':
      return trouble.source === 'flag'
        ? 'The service refused the key given with --api-key. Pass a valid one, or run `svc login` to save one.'
        : trouble.source === 'env'
          ? 'The service refused the key in SVC_API_KEY. Set it to a valid key, or unset it and run `svc login`.'
          : `The service refused the key of profile "${trouble.profile}". Run \`svc login --profile ${trouble.profile}\` to save a new one.`;
    case 'still-running':
      return 'An earlier attempt of this request timed out here and is still running on the service; it is not done twice. Check its result later, or raise --timeout.';
  }
}

/** How the lines a message goes on to are indented. */
const CONTINUED = '  ';

/**
 * Past this, a line of text on stderr is cut: a value pasted by mistake is not echoed whole (a
 * service's error fields are cut shorter before: shortenEnvelope).
 */
const MAX_TEXT_LINE = 2000;

const NO_SECRETS: Pick<Secrets, 'mask'> = { mask: (text) => text };

/**
 * Reports the failure on stderr and returns the exit code. The secrets in use are masked in every
 * text before it is made one line (while an escape sequence that splits one is still whole) and
 * before a line is cut (a secret cut short is no longer recognisable to the output's masking).
 */
export function reportError(
  error: unknown,
  io: IO,
  mode: ReportMode | undefined,
  secrets: Pick<Secrets, 'mask'> = NO_SECRETS,
): number {
  const write = (line: string) => io.stderr.write(line + '\n');
  // Each message is wrapped between words to stderr's terminal, 80 columns elsewhere
  // (docs/reference/output.md, "Wrapping and widths"); the lines it goes on to are indented, so
  // that it reads as one.
  const width = io.stderrIsTTY ? (io.stderrColumns ?? FALLBACK_COLUMNS) : FALLBACK_COLUMNS;
  const say = (text: string) => {
    const line = secrets.mask(text);
    write(
      proseLines(
        line.length > MAX_TEXT_LINE ? `${line.slice(0, MAX_TEXT_LINE)}…` : line,
        width,
        '',
        CONTINUED,
      ).join('\n'),
    );
  };
  const oneLineMasked = (text: string) => shownText(text, secrets);
  if (error instanceof ApiError) {
    if (mode?.jsonErrors) {
      write(compactEnvelope(error));
      return error.exitCode;
    }
    const e = error.envelope;
    say(
      `error: ${oneLineMasked(e.error_code)}: ${oneLineMasked(e.error_message ?? `HTTP ${error.status}`)}`,
    );
    if (e.suggested_action) say(oneLineMasked(e.suggested_action));
    if (e.documentation_url) say(`Docs: ${oneLineMasked(e.documentation_url)}`);
    if (e.request_id) say(`Request ID: ${oneLineMasked(e.request_id)}`);
    // What svc knows of the trouble says more than the exit code's general advice.
    const hint = error.trouble
      ? adviceFor(error.trouble)
      : e.suggested_action
        ? undefined
        : HINTS_BY_EXIT[error.exitCode];
    if (hint) say(hint);
    for (const line of error.hints) say(oneLineMasked(line));
    return error.exitCode;
  }
  if (mode?.jsonErrors && !isPromptExit(error)) {
    // As an API error is in machine mode: one compact envelope of the same keys.
    const exitCode = error instanceof CliError ? error.exitCode : EXIT.failure;
    const advice =
      error instanceof CliError
        ? [...(error.trouble ? [adviceFor(error.trouble)] : []), ...error.hints]
        : [];
    const message = error instanceof Error ? error.message : String(error);
    write(
      JSON.stringify({
        error_code: errorCodeOf(exitCode),
        error_message: oneLineMasked(message),
        ...(advice.length > 0 && { suggested_action: advice.map(oneLineMasked).join(' ') }),
      }),
    );
    if (mode.debug && error instanceof Error && error.stack) write(error.stack);
    return exitCode;
  }
  if (error instanceof CliError) {
    say(`error: ${oneLineMasked(error.message)}`);
    if (error.trouble) say(adviceFor(error.trouble));
    // A hint may quote the service too ("Check it later with `svc reports get ID`").
    for (const hint of error.hints) say(oneLineMasked(hint));
    if (mode?.debug && error.stack) write(error.stack);
    return error.exitCode;
  }
  if (isPromptExit(error)) return EXIT.interrupted;
  // A bug of ours: one line, and the stack only when asked for.
  const message = error instanceof Error ? error.message : String(error);
  say(`error: ${oneLineMasked(message)}`);
  if (mode?.debug && error instanceof Error && error.stack) write(error.stack);
  else say('Run again with --debug for details.');
  return EXIT.failure;
}

/**
 * The error_code of a failure of svc's own in machine mode: its exit code's name (USAGE, NETWORK,
 * UNEXPECTED_REPLY …).
 */
function errorCodeOf(exitCode: number): string {
  const name =
    Object.entries(EXIT).find(([, code]) => code === exitCode)?.[0] ??
    (exitCode > 128 ? 'stopped' : 'failure');
  return name.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
}

/**
 * The error body as one compact JSON line; one nested past what JSON.stringify walks, as decoded.
 */
function compactEnvelope(error: ApiError): string {
  try {
    return JSON.stringify(error.fromEnvelope ? JSON.parse(error.rawBody) : error.envelope);
  } catch {
    return JSON.stringify(error.envelope);
  }
}

/** An @inquirer prompt throws ExitPromptError on Ctrl-C. */
function isPromptExit(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExitPromptError';
}
