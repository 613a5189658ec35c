// The README's CI recipe ("Webhooks in CI: a recipe"), taken from the README as written and run
// by bash with the built svc on the PATH: once as it should go, and once in each way it can fail.
// Every run must end by itself, with the exit code the README's table gives and a line that says
// why, and leave nothing behind. A run that outlives its bound is killed and fails the test.
import { spawn } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { asErrorLine, unwrapped } from '../support/in-process.js';
import { mockAdminJson } from '../support/mock-admin.js';
import { baseEnv, collect, ROOT, SVC, useWorld, type Result } from './harness.js';

const world = useWorld();

/** The bash block the README marks as the CI recipe. */
function readmeRecipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const marker = readme.indexOf('<!-- The CI recipe');
  expect(marker, 'the README marks its CI recipe').toBeGreaterThan(0);
  const start = readme.indexOf('```bash\n', marker) + '```bash\n'.length;
  return readme.slice(start, readme.indexOf('\n```\n', start) + 1);
}

let recipe: string;
let bin: string;
beforeAll(() => {
  recipe = join(world.tempDir('svc-recipe-'), 'webhook-check.sh');
  writeFileSync(recipe, readmeRecipe());
  // `svc` on the PATH, as an installed one would be.
  bin = world.tempDir('svc-bin-');
  writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SVC)} "$@"\n`);
  chmodSync(join(bin, 'svc'), 0o755);
});

/** Longer than any bound the recipe sets when it fails (20 s for a server to listen), shorter than the suite's. */
const RUN_BOUND_MS = 40_000;

/** `bash webhook-check.sh` as a CI job runs it: no terminal, CI set, only `env` added. */
async function runRecipe(env: Record<string, string> = {}): Promise<Result & { leftBehind: string[] }> {
  const tmp = world.tempDir('svc-recipe-tmp-');
  const vars = { ...baseEnv(world.dir), PATH: `${bin}:${process.env.PATH}`, CI: 'true', TMPDIR: tmp, ...env };
  const child = spawn('bash', [recipe], { env: vars, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end();
  const result = await collect(child, RUN_BOUND_MS);
  return { ...result, leftBehind: readdirSync(tmp) };
}

/**
 * The error lines on stderr, as text, each on one line: the listener runs with --json, so its own
 * errors are JSON envelopes (contract §4), which `svc ready` relays as text lines.
 */
const errorLines = (stderr: string) => [...unwrapped(stderr).matchAll(/^(?:error: .*|\{"error_code".*)$/gm)].map(([line]) => asErrorLine(line));

describe("the README's CI recipe, run as written", () => {
  it('with nothing set: svc mock on the runner, the listener gets the fired event, the checks pass (exit 0)', async () => {
    const r = await runRecipe();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^webhook check passed: rpt_[0-9a-f]+\n$/);
    expect(r.stderr).toMatch(/^Listening for webhook deliveries on http:\/\/127\.0\.0\.1:\d+ \(any path\)$/m);
    expect(r.stderr).not.toMatch(/^(error|warning):/m);
    expect(r.leftBehind).toEqual([]);
  });

  it('the service cannot be reached: exit 9, saying so', async () => {
    const port = await closedPort();
    const r = await runRecipe({ SVC_BASE_URL: `http://127.0.0.1:${port}`, SVC_API_KEY: world.key().key });
    expect(r.code, r.stderr).toBe(9);
    expect(errorLines(r.stderr)).toContainEqual(
      expect.stringMatching(new RegExp(`^error: svc webhooks listen \\(pid \\d+\\) could not start: cannot reach svc mock at http://127\\.0\\.0\\.1:${port} to agree a signing secret: ECONNREFUSED$`)),
    );
    expect(r.stdout).toBe('');
    expect(r.leftBehind).toEqual([]);
  });

  it("the mock's port is taken: exit 2, naming the port", async () => {
    const held = await holdPort();
    try {
      const r = await runRecipe({ MOCK_PORT: String(held.port) });
      expect(r.code, r.stderr).toBe(2);
      expect(errorLines(r.stderr)).toContainEqual(expect.stringMatching(new RegExp(`^error: svc mock \\(pid \\d+\\) could not start: port ${held.port} is in use; pick another with --port`)));
      expect(r.leftBehind).toEqual([]);
    } finally {
      await new Promise((resolve) => held.server.close(resolve));
    }
  });

  it('a key svc mock does not know: exit 3, blaming the key', async () => {
    const r = await runRecipe({ SVC_API_KEY: 'svc_sk_test_00000000000000000000000000000000' });
    expect(r.code, r.stderr).toBe(3);
    expect(errorLines(r.stderr)).toContainEqual(
      expect.stringMatching(/^error: svc webhooks listen \(pid \d+\) could not start: svc mock at http:\/\/127\.0\.0\.1:\d+ does not know the key in force$/),
    );
    expect(r.leftBehind).toEqual([]);
  });

  it('a live key: the sandbox takes test keys only (exit 4), and the listener started is stopped', async () => {
    const r = await runRecipe({ SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key(0, 'live').key });
    expect(r.code, r.stderr).toBe(4);
    expect(errorLines(r.stderr)).toContainEqual(expect.stringMatching(/live key/));
    expect(r.leftBehind).toEqual([]);
    // The trap stopped the listener, which unregistered itself.
    expect(await mockAdminJson(world.mock, '/_mock/webhooks/endpoints', { key: world.key(0, 'live').key })).toEqual([]);
  });

  it('no event within EVENT_WAIT: exit 9 once the wait runs out', async () => {
    // The fire is answered as the service would, but nothing is delivered.
    await mockAdminJson(world.mock, '/_mock/faults', {
      json: { method: 'POST', path: '/v1/sandbox/reports/', status: 200, json: { fired: 'report.ready', report_id: 'rpt_0000000000000000', environment: 'test' } },
    });
    const r = await runRecipe({ SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key, EVENT_WAIT: '2' });
    expect(r.code, r.stderr).toBe(9);
    expect(errorLines(r.stderr)).toEqual(['error: got 0 of 1 event within 2 s']);
    expect(r.leftBehind).toEqual([]);
  });

  it('a service that is not svc mock, without SVC_WEBHOOK_SECRET: exit 2, naming it and not blaming the key', async () => {
    // On this machine, answering every request 401 as a service that checks keys before routes.
    const other = createServer((req, res) =>
      req.resume().on('end', () => res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error_code":"INVALID_API_KEY","error_message":"Unknown API key"}')),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
      const r = await runRecipe({ SVC_BASE_URL: url, SVC_API_KEY: world.key().key });
      expect(r.code, r.stderr).toBe(2);
      expect(errorLines(r.stderr)).toContainEqual(expect.stringMatching(/^error: svc webhooks listen \(pid \d+\) could not start: no signing secret: pass --secret or set SVC_WEBHOOK_SECRET$/));
      expect(r.stderr).toContain(`${url} is not svc mock`);
      expect(r.stderr).not.toMatch(/Unknown API key|does not know the key/);
      expect(r.leftBehind).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const { server, port } = await holdPort();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}
