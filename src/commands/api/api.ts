import { STATUS_CODES } from 'node:http';

import type { ApiReply } from '../../api/client.js';
import type { Context } from '../../app/context.js';
import { presentText } from '../../app/present.js';
import { CliError, UnexpectedReplyError, UsageError } from '../../core/errors.js';
import { type Masker, printable, shownText } from '../../core/output/format.js';
import { jsonOutput } from '../../core/output/json.js';
import type { ReplyHeaders } from '../../core/reply-headers.js';
import { ApiError } from '../../service/errors.js';
import {
  type ApiMethod,
  apiPath,
  buildObject,
  checkMethod,
  type FieldValue,
  isMethod,
  METHODS,
  parseHeader,
  splitField,
  toQuery,
  typedValue,
} from './fields.js';
import { RequestInput } from './input.js';

interface ApiFlags {
  method?: string;
  rawField?: string[];
  field?: string[];
  query?: string[];
  input?: string;
  header?: string[];
  include?: boolean;
}

/**
 * The method and the path, as `gh api` takes them: `PATH` alone is a GET, or a POST when fields or
 * --input give it a body; `-X METHOD` picks another. `METHOD PATH` (a method name, then a second
 * word) works as well.
 */
export function methodAndPath(
  first: string,
  second: string | undefined,
  options: ApiFlags,
): { method: ApiMethod; path: string } {
  const flag = options.method === undefined ? undefined : checkMethod(options.method);
  if (second !== undefined) {
    if (!isMethod(first))
      throw new UsageError(
        `"${first}" is not a method (${METHODS.join(', ')}): give PATH alone, or METHOD PATH`,
      );
    const method = checkMethod(first);
    if (flag && flag !== method)
      throw new UsageError(`two methods: ${method} and -X ${flag}; give one`);
    return { method, path: apiPath(second) };
  }
  // `svc api DELETE` is a method whose path is missing, not a request for /v1/DELETE.
  if (isMethod(first))
    throw new UsageError(
      `${first.toUpperCase()} needs a PATH after it, as in \`svc api ${first} reports\``,
    );
  const hasBody =
    (options.rawField?.length ?? 0) > 0 ||
    (options.field?.length ?? 0) > 0 ||
    options.input !== undefined;
  return { method: flag ?? (hasBody ? 'POST' : 'GET'), path: apiPath(first) };
}

export async function callApi(
  ctx: Context,
  first: string,
  second: string | undefined,
  options: ApiFlags,
): Promise<void> {
  const { method, path } = methodAndPath(first, second, options);
  const input = new RequestInput(ctx.io.stdin);
  if (options.include && ctx.flags.jq !== undefined)
    throw new UsageError(
      '--include prints the status and headers, which --jq cannot filter: use one or the other',
    );

  const fields: { key: string; value: FieldValue }[] = [];
  for (const item of options.rawField ?? []) {
    const [key, value] = splitField(item, '-f');
    fields.push({ key, value });
  }
  for (const item of options.field ?? []) {
    const [key, raw] = splitField(item, '-F');
    fields.push({
      key,
      value: await typedValue(raw, async (source) =>
        (await input.read(source, `-F ${item}`)).toString('utf8'),
      ),
    });
  }
  const query: [string, string][] = (options.query ?? []).map((item) => splitField(item, '-q'));
  const headers = Object.fromEntries((options.header ?? []).map(parseHeader));

  let body: { bytes: Uint8Array; contentType: string } | undefined;
  let json: unknown;
  if (options.input !== undefined) {
    if (method === 'GET')
      throw new UsageError('a GET request has no body: --input cannot be used with GET');
    const bytes = await input.read(options.input, `--input ${options.input}`);
    body = { bytes, contentType: 'application/json' };
    query.push(...toQuery(fields));
  } else if (method === 'GET') {
    query.push(...toQuery(fields));
  } else if (fields.length) {
    json = buildObject(fields);
  }

  const terminal = ctx.io.stdoutIsTTY;
  const out: Shown = { terminal, color: ctx.color, secrets: ctx.secrets };
  const client = await ctx.client();
  let reply: ApiReply;
  try {
    reply = await client.request({
      method,
      path: withQuery(path, query),
      json,
      body,
      headers,
      anyBody: true,
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // As gh api: the body of an error reply is still the output; the summary goes to stderr.
    const head = options.include
      ? statusLine(error.status) + headerLines(error.headers, out) + '\n'
      : '';
    await presentText(ctx, head + (error.rawBody === '' ? '' : bodyText(error.rawBody, out).text));
    const failure = new CliError(summary(error), error.exitCode);
    // What svc knows of the trouble (which key was refused, say) is still said; but a refused
    // Authorization header given with -H is the user's own, not the key svc sent.
    const ownAuthorization = Object.keys(headers).some(
      (name) => name.toLowerCase() === 'authorization',
    );
    if (ownAuthorization && error.trouble?.kind === 'key-refused')
      failure.hints.push('The service refused the Authorization header given with -H.');
    else failure.trouble = error.trouble;
    throw failure;
  }
  const head = options.include
    ? statusLine(reply.status) + headerLines(reply.headers, out) + '\n'
    : '';
  const shown = reply.raw === '' ? undefined : bodyText(reply.raw, out);
  // A reply read as one output: paged on a terminal when taller than it.
  await presentText(ctx, head + (shown?.text ?? ''));
  if (!shown) return;
  // Printed all the same, so nothing is lost; but a success that is not JSON is not what a script
  // expects.
  if (!shown.json)
    throw new UnexpectedReplyError(
      `${method} ${path} answered ${reply.status} with a body that is not JSON`,
    );
}

function withQuery(path: string, query: [string, string][]): string {
  if (query.length === 0) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams(query).toString()}`;
}

/**
 * How the reply is shown: on a terminal, text made printable once its secrets are masked (while an
 * escape sequence that splits one is still whole).
 */
interface Shown {
  terminal: boolean;
  color: boolean;
  secrets: Masker;
}

/**
 * The reply's headers, one a line; on a terminal without the characters that could move the cursor
 * (a header can carry C1 ones).
 */
function headerLines(headers: ReplyHeaders, out: Shown): string {
  return [...headers]
    .map(
      ([name, value]) =>
        `${out.terminal ? shownText(`${name}: ${value}`, out.secrets) : `${name}: ${value}`}\n`,
    )
    .join('');
}

/** HTTP/1.1 is what the client speaks. */
function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd() + '\n';
}

/**
 * Pretty JSON when the body is JSON (see jsonOutput), else the body as it came, made printable on
 * a terminal; always ending with a newline.
 */
function bodyText(raw: string, out: Shown): { text: string; json: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    const text = out.terminal ? printable(out.secrets.mask(raw)) : raw;
    return { text: text.endsWith('\n') ? text : text + '\n', json: false };
  }
  return { text: jsonOutput(raw, parsed, out), json: true };
}

function summary(error: ApiError): string {
  const e = error.envelope;
  if (!error.fromEnvelope)
    return `HTTP ${error.status} ${STATUS_CODES[error.status] ?? ''}`.trimEnd();
  return `HTTP ${error.status}: ${e.error_code}${e.error_message ? `: ${e.error_message}` : ''}`;
}
