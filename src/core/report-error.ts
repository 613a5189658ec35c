// The one place that turns a failure into what the user reads on stderr and an exit code.
import type { Context } from './context.js';
import { ApiError, CliError, EXIT, type Trouble } from './errors.js';
import type { IO } from './io.js';
import { oneLine } from './output/format.js';

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
    case 'token-only':
      return 'This request sends no API key: the token alone opens the data. Check --token; the consent may also be revoked or expired.';
    case 'still-running':
      return 'An earlier attempt of this request timed out here and is still running on the service; it is not done twice. Check its result later, or raise --timeout.';
  }
}

export function reportError(error: unknown, io: IO, context: Context | undefined): number {
  const write = (line: string) => io.stderr.write(line + '\n');
  if (error instanceof ApiError) {
    if (context?.machineOutput) {
      write(compactEnvelope(error));
      return error.exitCode;
    }
    const e = error.envelope;
    write(`error: ${oneLine(e.error_code)}: ${oneLine(e.error_message ?? `HTTP ${error.status}`)}`);
    if (e.suggested_action) write(oneLine(e.suggested_action));
    if (e.documentation_url) write(`Docs: ${oneLine(e.documentation_url)}`);
    if (e.request_id) write(`Request ID: ${oneLine(e.request_id)}`);
    // What svc knows of the trouble says more than the exit code's general advice.
    const hint = error.trouble ? adviceFor(error.trouble) : e.suggested_action ? undefined : HINTS_BY_EXIT[error.exitCode];
    if (hint) write(hint);
    for (const line of error.hints) write(oneLine(line));
    return error.exitCode;
  }
  if (error instanceof CliError) {
    write(`error: ${oneLine(error.message)}`);
    if (error.trouble) write(adviceFor(error.trouble));
    for (const hint of error.hints) write(hint);
    if (context?.debug && error.stack) write(error.stack);
    return error.exitCode;
  }
  if (isPromptExit(error)) return EXIT.interrupted;
  // A bug of ours: one line, and the stack only when asked for.
  const message = error instanceof Error ? error.message : String(error);
  write(`error: ${oneLine(message)}`);
  if (context?.debug && error instanceof Error && error.stack) write(error.stack);
  else write('Run again with --debug for details.');
  return EXIT.failure;
}

/** The error body as one compact JSON line; one nested past what JSON.stringify walks, as decoded. */
function compactEnvelope(error: ApiError): string {
  try {
    return JSON.stringify(error.fromEnvelope ? JSON.parse(error.rawBody) : error.envelope);
  } catch {
    return JSON.stringify(error.envelope);
  }
}

/** @inquirer/prompts throws ExitPromptError on Ctrl-C. */
function isPromptExit(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExitPromptError';
}
