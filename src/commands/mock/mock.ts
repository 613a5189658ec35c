import { once } from 'node:events';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { checkInteger } from '../args.js';

interface MockFlags {
  port: string;
  processingMs: string;
  quiet?: boolean;
}

export async function runMock(ctx: Context, options: MockFlags): Promise<void> {
  const port = checkInteger(options.port, '--port', 0, 65_535)!;
  const processingDelayMs = checkInteger(options.processingMs, '--processing-ms', 0, 3_600_000)!;
  const { startMockServer } = await import('../../mock/server.js');
  let server;
  try {
    server = await startMockServer({ port, processingDelayMs, log: options.quiet ? undefined : (line) => ctx.err(line) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use; pick another with --port, or --port 0 for a free one`);
    throw error;
  }
  if (ctx.format === 'json' || ctx.format === 'ndjson') {
    ctx.out(JSON.stringify({ url: server.url, keys: server.keys }) + '\n');
  } else {
    ctx.out(banner(server.url, server.keys));
  }
  if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
  await server.close();
  ctx.err('svc mock stopped');
}

type Key = { key: string; organization_name: string; mode: string; scope: string };

function banner(url: string, keys: Key[]): string {
  const first = keys.find((k) => k.mode === 'test' && k.scope === 'FULL') ?? keys[0]!;
  const width = Math.max(...keys.map((k) => k.organization_name.length));
  const rows = keys.map((k) => `  ${k.organization_name.padEnd(width)}  ${k.mode.padEnd(4)}  ${k.scope.padEnd(9)}  ${k.key}`);
  return [
    `svc mock is listening on ${url}  (Ctrl-C stops it)`,
    '',
    'Demo keys (made for this run; the mock keeps only their SHA-256 hashes):',
    ...rows,
    '',
    'Try it in another shell:',
    `  export SVC_BASE_URL=${url}`,
    `  export SVC_API_KEY=${first.key}`,
    '  svc reports list',
    '',
  ].join('\n');
}
