import { once } from 'node:events';

import type { Context } from '../../app/context.js';
import { UsageError } from '../../core/errors.js';
import { glueWhole, labelledLines } from '../../core/output/fit.js';
import { shownText } from '../../core/output/format.js';
import { textLines } from '../../core/output/render.js';
// The fault names are a table of their own: the emulator is loaded only once the flags are checked.
import { FAULT_DESCRIPTIONS, isFaultName } from '../../mock/fault-names.js';
import { keepingState, type ReadyFile } from '../../service/ready-file.js';
import { runUntilStopped } from '../../service/until-stopped.js';
import { checkInteger } from '../args.js';
import { demoKeys, shownPath } from './demo-keys.js';

interface MockFlags {
  port: string;
  processingMs: string;
  quiet?: boolean;
  keepRequests: string;
  keepBodies?: boolean;
  webhookUrl?: string[];
  webhookSecret?: string;
  fault?: string[];
  readyFile?: string;
  newKeys?: boolean;
}

export async function runMock(ctx: Context, options: MockFlags): Promise<void> {
  // Kept from the first moment: a script waiting on it (svc ready) learns of a bad flag too.
  await keepingState(
    options.readyFile,
    'svc mock',
    { shown: (text) => shownText(text, ctx.secrets), now: () => ctx.now() },
    (ready) => serveMock(ctx, options, ready),
  );
}

async function serveMock(
  ctx: Context,
  options: MockFlags,
  ready: ReadyFile | undefined,
): Promise<void> {
  runUntilStopped(ctx.flags.jq, 'svc mock');
  const port = checkInteger(options.port, '--port', 0, 65_535)!;
  const processingDelayMs = checkInteger(options.processingMs, '--processing-ms', 0, 3_600_000)!;
  const requestLog = {
    capacity: checkInteger(options.keepRequests, '--keep-requests', 0, 1_000_000)!,
    bodies: options.keepBodies ?? false,
  };
  const webhookUrls = (options.webhookUrl ?? []).map(checkWebhookUrl);
  const webhookSecret = options.webhookSecret;
  if (webhookSecret !== undefined && !/^\S{8,}$/.test(webhookSecret)) {
    throw new UsageError('--webhook-secret takes at least 8 characters and no white space');
  }
  if (options.fault?.includes('list')) {
    const width = Math.max(...Object.keys(FAULT_DESCRIPTIONS).map((name) => name.length));
    ctx.out(
      Object.entries(FAULT_DESCRIPTIONS)
        .map(([name, description]) => `${name.padEnd(width)}  ${description}\n`)
        .join(''),
    );
    return;
  }
  const unknown = options.fault?.find((name) => !isFaultName(name));
  if (unknown !== undefined)
    throw new UsageError(
      `unknown fault "${unknown}" (faults: ${Object.keys(FAULT_DESCRIPTIONS).join(', ')})`,
    );
  // The emulator: dist/mock.cjs, a bundle of its own beside the program (scripts/build.mjs).
  const { startMockServer, mockKeys, FAULT_PRESETS } = await import('../../mock/entry.js');
  const faults = (options.fault ?? []).flatMap((name) => FAULT_PRESETS[name]!.specs);
  // The keys come before the port: a run refused for its key file binds nothing.
  const kept = await demoKeys(
    ctx,
    await ctx.config.folder('data'),
    options.newKeys === true,
    mockKeys,
  );
  let server;
  try {
    server = await startMockServer({
      keys: kept.keys,
      port,
      processingDelayMs,
      webhookUrls,
      webhookSecret,
      faults,
      requestLog,
      log: options.quiet ? undefined : (line) => ctx.err(line),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(
        `port ${port} is in use; pick another with --port, or --port 0 for a free one`,
      );
    throw error;
  }
  if (ctx.format === 'json' || ctx.format === 'ndjson') {
    ctx.out(
      JSON.stringify({
        url: server.url,
        keys: server.keys,
        webhook_secret: server.webhookSecret,
        webhook_urls: webhookUrls,
      }) + '\n',
    );
  } else {
    // On a terminal fitted to its width, a key or a URL never split; in a pipe as it is.
    const screen: Screen = { terminal: ctx.io.stdoutIsTTY, width: ctx.io.columns };
    const where =
      kept.file === undefined ? undefined : shownPath(kept.file, await ctx.config.folder('home'));
    ctx.out(
      banner(server.url, server.keys, where, screen) +
        webhookBanner(server.url, server.webhookSecret, webhookUrls, screen),
    );
    if (options.fault?.length)
      ctx.err(`Injecting faults into every /v1 request: ${options.fault.join(', ')}`);
  }
  // After the first line: a script that waited on the file finds the keys written.
  ready?.listeningAt(server.url);
  if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
  await server.close();
  ctx.err('svc mock stopped');
}

type Key = { key: string; organization_name: string; mode: string; scope: string };

/** Where the banner is shown: a terminal of that width, or a pipe (each line whole). */
type Screen = { terminal: boolean; width: number };

const asIs = (text: string) => text;
const INDENT = '  ';

/** `where`: the file the keys are kept in, as shown; undefined when they are this run's alone. */
function banner(url: string, keys: Key[], where: string | undefined, screen: Screen): string {
  const first = keys.find((k) => k.mode === 'test' && k.scope === 'FULL') ?? keys[0]!;
  const width = Math.max(...keys.map((k) => k.organization_name.length));
  // Each key beside what it is for, or under it (unindented) where the terminal is too narrow for
  // both.
  const rows: [string, string, boolean][] = keys.map((k) => [
    `${k.organization_name.padEnd(width)}  ${k.mode.padEnd(4)}  ${k.scope}`,
    k.key,
    true,
  ]);
  const keyLines = labelledLines(
    rows,
    screen.terminal ? screen.width - INDENT.length : Number.POSITIVE_INFINITY,
    asIs,
  )
    .split('\n')
    .slice(0, -1)
    .map((line) => INDENT + line + '\n')
    .join('');
  return (
    textLines(
      [
        `svc mock is listening on ${url}  (Ctrl-C stops it)`,
        '',
        // Two lines, so that each fits 80 columns in a pipe too (the path aside).
        ...(where === undefined
          ? ['Demo keys (made for this run; the mock keeps only their SHA-256 hashes):']
          : [
              `Demo keys (kept in ${where};`,
              '--new-keys makes new ones; the mock itself keeps only their SHA-256 hashes):',
            ]),
      ],
      screen,
      asIs,
    ) +
    keyLines +
    // A command to copy is one line, however narrow the terminal.
    textLines(
      [
        '',
        'Try it in another shell:',
        glueWhole(`${INDENT}export SVC_BASE_URL=${url}`),
        glueWhole(`${INDENT}export SVC_API_KEY=${first.key}`),
        `${INDENT}svc reports list`,
        '',
      ],
      screen,
      asIs,
    )
  );
}

/**
 * Where fired events go and what they are signed with. A `svc webhooks listen` run against this
 * mock registers itself (POST /_mock/webhooks/endpoints, with one of the keys), bringing the secret
 * to sign its deliveries with (the user's, or the one svc keeps for its listeners); one that brings
 * none is told a secret made for it alone. The mock's secret signs only the deliveries to
 * --webhook-url addresses, so it is shown only with them.
 */
function webhookBanner(url: string, secret: string, urls: string[], screen: Screen): string {
  // Short lines: the secret alone is 70 columns, and the banner must fit a terminal of 80.
  return textLines(
    [
      'Sandbox webhooks (svc sandbox fire ID) go to every `svc webhooks listen` run',
      `with SVC_BASE_URL=${url}`,
      'and a key of the organisation that fires them (it registers itself, and is',
      'given a signing secret of its own)',
      ...(urls.length > 0
        ? [
            'and to',
            ...urls.map((target) => `${INDENT}${target}`),
            'signed with the secret',
            `${INDENT}${secret}`,
          ]
        : []),
    ],
    screen,
    asIs,
  );
}

/**
 * A delivery address: an absolute http(s) URL (deliveries carry no API key, so http is allowed).
 */
function checkWebhookUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--webhook-url "${value}" is not an absolute URL (example: http://127.0.0.1:8788/hooks)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--webhook-url "${value}" is not an http or https URL`);
  return url.toString();
}
