import { CONNECT_SCOPE_NAMES, CONNECT_SCOPES, redirectUriProblem } from '../../api/connect.js';
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { UnexpectedReplyError, UsageError } from '../../core/errors.js';
import { colorEnabled } from '../../core/io.js';
import { otherFields } from '../../core/json/values.js';
import { withRest } from '../../core/output/generic.js';
import type { Column } from '../../core/output/view.js';
import { secureUrl, shownUrl } from '../../core/urls.js';
import { ReplyReading } from '../../service/reading.js';
import { qrText } from './qr.js';

interface ConnectFlags {
  /** The items of --scopes (listOption, index.ts). */
  scopes?: string[];
  scope?: string[];
  redirectUri?: string;
  open?: boolean;
  qr?: boolean;
}

export async function startConnect(ctx: Context, options: ConnectFlags): Promise<void> {
  let scopes = scopesFrom(options);
  let redirectUri =
    options.redirectUri === undefined ? undefined : checkRedirectUri(options.redirectUri);
  const missing = [
    ...(scopes === undefined ? ['--scopes'] : []),
    ...(redirectUri === undefined ? ['--redirect-uri'] : []),
  ];
  if (missing.length && !ctx.canPrompt) {
    throw new UsageError(
      `missing ${missing.join(' and ')} (svc asks only at a terminal, never in CI)`,
      [
        'Example: svc connect --scopes identity,income --redirect-uri https://app.example.com/connect/done',
      ],
    );
  }
  // Configuration first: no questions when the request could not be sent anyway.
  const client = await ctx.client();
  scopes ??= await askScopes(ctx);
  redirectUri ??= await askRedirectUri(ctx);

  const call = target(ENDPOINTS.connectRequest);
  const reply = await client.request({ ...call, json: { scopes, redirect_uri: redirectUri } });
  const { what } = call;
  // --qr and --open must have the address, one a browser may open; printing the reply needs
  // nothing.
  const connectUrl =
    options.qr || options.open
      ? openable(await connectUrlOf(new ReplyReading(what), reply.body))
      : undefined;
  await present(ctx, reply, {
    what,
    replies: () => import('../../api/replies/connect.js'),
    view: (body, reading, { readReply, ConnectRequestReply }) => {
      const r = readReply(reading, ConnectRequestReply, body);
      const c = { token: r?.request_token, url: r?.connect_url };
      // The documents show these two fields only; anything else the service adds follows as it
      // comes. Both are copied whole: each is kept on one line, under its label when too wide
      // beside it.
      const fields: Column<typeof c>[] = [
        { key: 'request_token', header: 'Request token', value: (x) => x.token, keep: true },
        { key: 'connect_url', header: 'Connect URL', value: (x) => x.url, keep: true },
      ];
      return withRest(
        { kind: 'record', record: c, fields },
        otherFields(body, ['request_token', 'connect_url']),
      );
    },
  });
  if (connectUrl !== undefined && options.qr) await drawQr(ctx, connectUrl);
  if (connectUrl !== undefined && options.open) await openInBrowser(ctx, connectUrl);
}

/** The scopes of --scopes and --scope together, each checked; undefined when neither was given. */
function scopesFrom(options: ConnectFlags): string[] | undefined {
  if (options.scopes === undefined && options.scope === undefined) return undefined;
  // --scope is one scope a use, trimmed: a comma in it is part of the name, an unknown one.
  const scope = (options.scope ?? []).map((s) => s.trim()).filter((s) => s !== '');
  const names = [...(options.scopes ?? []), ...scope];
  if (names.length === 0)
    throw new UsageError(
      '--scopes is empty: name at least one scope, e.g. --scopes identity,income',
    );
  for (const name of names) {
    if (!CONNECT_SCOPE_NAMES.includes(name)) {
      throw new UsageError(
        `unknown scope "${name}" (the scopes are ${CONNECT_SCOPE_NAMES.join(', ')})`,
      );
    }
  }
  return [...new Set(names)];
}

/**
 * The reply's `connect_url`, a text it must have; its schema loaded only then (--json loads none).
 */
async function connectUrlOf(reading: ReplyReading, body: unknown): Promise<string> {
  const { readReply, ConnectUrlReply } = await import('../../api/replies/connect.js');
  return readReply(reading, ConnectUrlReply, body).connect_url;
}

/**
 * The Connect URL, when a browser (ours or the phone's) may be sent there: https, or http to this
 * machine. A service could otherwise have us open `file:///etc/passwd` or a script URL.
 */
function openable(connectUrl: string): string {
  const { problem } = secureUrl(connectUrl);
  if (problem)
    throw new UnexpectedReplyError(
      `refusing to open the connect_url of the reply: "${shownUrl(connectUrl)}" ${problem}`,
    );
  return connectUrl;
}

function checkRedirectUri(value: string): string {
  const problem = redirectUriProblem(value.trim());
  if (problem) throw new UsageError(`--redirect-uri ${problem}`);
  return value.trim();
}

async function askScopes(ctx: Context): Promise<string[]> {
  return ctx.prompter().checkbox(
    'Scopes to ask the end user for',
    CONNECT_SCOPES.map((s) => ({
      value: s.name,
      name: `${s.name} - ${s.description}`,
      short: s.name,
    })),
  );
}

async function askRedirectUri(ctx: Context): Promise<string> {
  return ctx.prompter().text('Redirect URI (where the flow returns)', {
    validate: (v) => redirectUriProblem(v.trim()) ?? true,
  });
}

/**
 * On stderr: stdout keeps only the reply, for pipes; the code is for the eyes of a person anyway.
 * Its black-on-white colours follow the colour rules of stderr (without them a dark terminal shows
 * the code inverted, which most phone cameras still read).
 */
async function drawQr(ctx: Context, url: string): Promise<void> {
  ctx.io.stderr.write(
    qrText(url, { color: colorEnabled(ctx.io.env, ctx.io.stderrIsTTY, ctx.flags.color === false) }),
  );
}

/** A browser that cannot be started is not a failure: the address is printed anyway. */
async function openInBrowser(ctx: Context, url: string): Promise<void> {
  try {
    await ctx.openBrowser(url);
    ctx.err('Asked the browser to open the Connect URL.');
  } catch (error) {
    ctx.warn(
      `could not open a browser (${(error as Error).message}); open the Connect URL yourself`,
    );
  }
}
