// The CI recipe of docs/guides/webhooks-and-ci.md ("Webhooks in CI: a recipe"), taken from the page
// as written and run by bash: the webhook check with the built svc on the PATH, once as it should
// go and once in each way it can fail; then the install script with the files `npm run release`
// makes, served as a release page would serve them, each form it installs running the webhook check
// (the single executable on a PATH without Node), and a download that is not the release's refused.
// Every run must end by itself, with the exit code the page gives and a line that says why, and
// leave nothing behind. A run that outlives its bound is killed and fails the test.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  createReadStream,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { asErrorLine, unwrapped } from '../support/in-process.js';
import { mockAdminJson } from '../support/mock-admin.js';
import { baseEnv, collect, type Result, ROOT, SVC, useWorld } from './harness.js';
import { findRelease, pathWithoutNode, type Release, releaseSkipNote } from './release-files.js';

const world = useWorld();

/** The guide that holds the recipe. */
const GUIDE = join(ROOT, 'docs', 'guides', 'webhooks-and-ci.md');

/** The bash block the guide marks with `marker` (an HTML comment's start). */
function guideBlock(marker: string): string {
  const guide = readFileSync(GUIDE, 'utf8');
  const at = guide.indexOf(marker);
  expect(at, `the guide marks its block "${marker}"`).toBeGreaterThan(0);
  const start = guide.indexOf('```bash\n', at) + '```bash\n'.length;
  return guide.slice(start, guide.indexOf('\n```\n', start) + 1);
}

let recipe: string;
let installer: string;
let bin: string;
beforeAll(() => {
  recipe = join(world.tempDir('svc-recipe-'), 'webhook-check.sh');
  writeFileSync(recipe, guideBlock('<!-- The CI recipe'));
  installer = join(world.tempDir('svc-recipe-'), 'install-svc.sh');
  writeFileSync(installer, guideBlock('<!-- The CI install recipe'));
  // `svc` on the PATH, as an installed one would be.
  bin = world.tempDir('svc-bin-');
  writeFileSync(
    join(bin, 'svc'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SVC)} "$@"\n`,
  );
  chmodSync(join(bin, 'svc'), 0o755);
});

/**
 * Longer than any bound the recipe sets when it fails (20 s for a server to listen), shorter than
 * the suite's.
 */
const RUN_BOUND_MS = 40_000;

/**
 * `bash SCRIPT` as a CI job runs it: no terminal, CI set, only `env` added (by default the webhook
 * check with the built svc on the PATH).
 */
async function runRecipe(
  env: Record<string, string> = {},
  script = recipe,
): Promise<Result & { leftBehind: string[] }> {
  const tmp = world.tempDir('svc-recipe-tmp-');
  const vars = {
    ...baseEnv(world.dir),
    PATH: `${bin}:${process.env.PATH}`,
    CI: 'true',
    TMPDIR: tmp,
    ...env,
  };
  const child = spawn('/bin/bash', [script], { env: vars, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end();
  const result = await collect(child, RUN_BOUND_MS);
  return { ...result, leftBehind: readdirSync(tmp) };
}

/**
 * The error lines on stderr, as text, each on one line: the listener runs with --json, so its own
 * errors are JSON envelopes (docs/reference/exit-codes.md), which `svc ready` relays as text lines.
 */
const errorLines = (stderr: string) =>
  [...unwrapped(stderr).matchAll(/^(?:error: .*|\{"error_code".*)$/gm)].map(([line]) =>
    asErrorLine(line),
  );

describe("the guide's CI recipe, run as written", () => {
  it('with nothing set: svc mock on the runner, the listener gets the fired event, the checks pass (exit 0)', async () => {
    const r = await runRecipe();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^webhook check passed: rpt_[0-9a-f]+\n$/);
    expect(r.stderr).toMatch(
      /^Listening for webhook deliveries on http:\/\/127\.0\.0\.1:\d+ \(any path\)$/m,
    );
    expect(r.stderr).not.toMatch(/^(error|warning):/m);
    expect(r.leftBehind).toEqual([]);
  });

  it('the service cannot be reached: exit 9, saying so', async () => {
    const port = await closedPort();
    const r = await runRecipe({
      SVC_BASE_URL: `http://127.0.0.1:${port}`,
      SVC_API_KEY: world.key().key,
    });
    expect(r.code, r.stderr).toBe(9);
    expect(errorLines(r.stderr)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^error: svc webhooks listen \\(pid \\d+\\) could not start: cannot reach svc mock at http://127\\.0\\.0\\.1:${port} to agree a signing secret: ECONNREFUSED$`,
        ),
      ),
    );
    expect(r.stdout).toBe('');
    expect(r.leftBehind).toEqual([]);
  });

  it("the mock's port is taken: exit 2, naming the port", async () => {
    const held = await holdPort();
    try {
      const r = await runRecipe({ MOCK_PORT: String(held.port) });
      expect(r.code, r.stderr).toBe(2);
      expect(errorLines(r.stderr)).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^error: svc mock \\(pid \\d+\\) could not start: port ${held.port} is in use; pick another with --port`,
          ),
        ),
      );
      expect(r.leftBehind).toEqual([]);
    } finally {
      await new Promise((resolve) => held.server.close(resolve));
    }
  });

  it('a key svc mock does not know: exit 3, blaming the key', async () => {
    const r = await runRecipe({ SVC_API_KEY: 'svc_sk_test_00000000000000000000000000000000' });
    expect(r.code, r.stderr).toBe(3);
    expect(errorLines(r.stderr)).toContainEqual(
      expect.stringMatching(
        /^error: svc webhooks listen \(pid \d+\) could not start: svc mock at http:\/\/127\.0\.0\.1:\d+ does not know the key in force$/,
      ),
    );
    expect(r.leftBehind).toEqual([]);
  });

  it('a live key: the sandbox takes test keys only (exit 4), and the listener started is stopped', async () => {
    const r = await runRecipe({
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key(0, 'live').key,
    });
    expect(r.code, r.stderr).toBe(4);
    expect(errorLines(r.stderr)).toContainEqual(expect.stringMatching(/live key/));
    expect(r.leftBehind).toEqual([]);
    // The trap stopped the listener, which unregistered itself.
    expect(
      await mockAdminJson(world.mock, '/_mock/webhooks/endpoints', {
        key: world.key(0, 'live').key,
      }),
    ).toEqual([]);
  });

  it('no event within EVENT_WAIT: exit 9 once the wait runs out', async () => {
    // The fire is answered as the service would, but nothing is delivered.
    await mockAdminJson(world.mock, '/_mock/faults', {
      json: {
        method: 'POST',
        path: '/v1/sandbox/reports/',
        status: 200,
        json: { fired: 'report.ready', report_id: 'rpt_0000000000000000', environment: 'test' },
      },
    });
    const r = await runRecipe({
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
      EVENT_WAIT: '2',
    });
    expect(r.code, r.stderr).toBe(9);
    expect(errorLines(r.stderr)).toEqual(['error: got 0 of 1 event within 2 s']);
    expect(r.leftBehind).toEqual([]);
  });

  it('a service that is not svc mock, without SVC_WEBHOOK_SECRET: exit 2, naming it and not blaming the key', async () => {
    // On this machine, answering every request 401 as a service that checks keys before routes.
    const other = createServer((req, res) =>
      req
        .resume()
        .on('end', () =>
          res
            .writeHead(401, { 'Content-Type': 'application/json' })
            .end('{"error_code":"INVALID_API_KEY","error_message":"Unknown API key"}'),
        ),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
      const r = await runRecipe({ SVC_BASE_URL: url, SVC_API_KEY: world.key().key });
      expect(r.code, r.stderr).toBe(2);
      expect(errorLines(r.stderr)).toContainEqual(
        expect.stringMatching(
          /^error: svc webhooks listen \(pid \d+\) could not start: no signing secret: pass --secret or set SVC_WEBHOOK_SECRET$/,
        ),
      );
      expect(r.stderr).toContain(`${url} is not svc mock`);
      expect(r.stderr).not.toMatch(/Unknown API key|does not know the key/);
      expect(r.leftBehind).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

describe("the guide's CI jobs", () => {
  it('install svc with the install recipe, never by a package name from the registry (none is published)', () => {
    const guide = readFileSync(GUIDE, 'utf8');
    // From the install recipe to the end of the page: the recipe, the jobs and the prose around
    // them.
    const start = guide.indexOf('## Install svc in CI');
    expect(start).toBeGreaterThan(0);
    const section = guide.slice(start);
    const jobs = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map(([, job]) => job!);
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    for (const job of jobs) {
      expect(job).toMatch(/bash ci\/install-svc\.sh/);
      expect(job).not.toMatch(/npm (install|i) (-g|--global) +(?!\.\/)/);
    }
    // The recipe and the prose install a file, too.
    for (const [, what] of section.matchAll(/npm install -g +(\S+)/g))
      expect(what).toMatch(/^["'`]?\.\//);
  });
});

const found = findRelease();
const releaseNote = releaseSkipNote(found);

/**
 * The files of `release` at http://127.0.0.1:PORT/NAME, as a release page serves them (anything
 * else 404); with `corrupt`, that file arrives with one byte more than the release's.
 */
async function releasePage(
  release: Release,
  corrupt?: string,
): Promise<{ url: string; server: Server }> {
  const files = new Map(
    [release.executable, release.tarball, release.sums].map((path) => [basename(path), path]),
  );
  const server = createServer((req, res) => {
    const path = files.get(
      decodeURIComponent(new URL(req.url ?? '/', 'http://page').pathname.slice(1)),
    );
    if (!path) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    const body = createReadStream(path);
    body.pipe(res, { end: basename(path) !== corrupt });
    if (basename(path) === corrupt) body.on('end', () => res.end('\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

/**
 * npm as it works on this machine (its user config, which may name the registry and certificates;
 * its cache; its proxy), without its notices: the job's HOME is a folder of its own.
 */
const npmAsHere: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        /^(npm_config_|NODE_EXTRA_CA_CERTS$|SSL_CERT_|https?_proxy$|no_proxy$)/i.test(entry[0]),
    ),
  ),
  npm_config_userconfig: process.env.npm_config_userconfig ?? join(homedir(), '.npmrc'),
  npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

describe.skipIf(releaseNote !== undefined)(
  "the guide's install recipe, with the files npm run release makes",
  () => {
    let page: { url: string; server: Server };
    beforeAll(async () => {
      if (!found.release) throw new Error(found.why);
      page = await releasePage(found.release);
    });
    afterAll(() => new Promise((resolve) => page?.server.close(resolve)));

    it(
      'the single executable: checked, installed, and the webhook check passes with it on a PATH without Node',
      { timeout: 90_000 },
      async () => {
        const machine = world.tempDir('svc-recipe-exe-');
        const tools = pathWithoutNode(join(machine, 'tools'));
        const installed = await runRecipe(
          { HOME: machine, PATH: tools, SVC_RELEASE_URL: page.url },
          installer,
        );
        expect(installed.code, installed.stderr).toBe(0);
        expect(installed.stdout).toBe(`${basename(found.release!.executable)}: OK\n`);
        expect(installed.leftBehind).toEqual([]);
        const svc = join(machine, '.local', 'bin', 'svc');
        expect(statSync(svc).size).toBe(statSync(found.release!.executable).size);
        expect(statSync(svc).mode & 0o777).toBe(0o755);

        const r = await runRecipe({ PATH: `${join(machine, '.local', 'bin')}:${tools}` });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/^webhook check passed: rpt_[0-9a-f]+\n$/);
        expect(r.leftBehind).toEqual([]);
      },
    );

    it(
      'the npm tarball (SVC_FORM=npm): checked, installed with npm install -g, and the webhook check passes with it',
      { timeout: 120_000 },
      async () => {
        const machine = world.tempDir('svc-recipe-npm-');
        const prefix = join(machine, 'global');
        const installed = await runRecipe(
          {
            HOME: machine,
            SVC_RELEASE_URL: page.url,
            SVC_FORM: 'npm',
            ...npmAsHere,
            npm_config_prefix: prefix,
          },
          installer,
        );
        expect(installed.code, installed.stderr).toBe(0);
        expect(installed.stdout).toMatch(
          new RegExp(`^${basename(found.release!.tarball).replaceAll('.', '\\.')}: OK\n`),
        );
        expect(installed.leftBehind).toEqual([]);

        const r = await runRecipe({ PATH: `${join(prefix, 'bin')}:${process.env.PATH}` });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/^webhook check passed: rpt_[0-9a-f]+\n$/);
      },
    );

    it(
      "a download that is not the release's fails at sha256sum -c (exit 1), and nothing is installed",
      { timeout: 60_000 },
      async () => {
        const name = basename(found.release!.executable);
        const corrupt = await releasePage(found.release!, name);
        try {
          const machine = world.tempDir('svc-recipe-bad-');
          const r = await runRecipe({ HOME: machine, SVC_RELEASE_URL: corrupt.url }, installer);
          expect(r.code, r.stderr).toBe(1);
          expect(r.stdout).toBe(`${name}: FAILED\n`);
          expect(r.stderr).toMatch(/^sha256sum: WARNING: 1 computed checksum did NOT match$/m);
          expect(existsSync(join(machine, '.local'))).toBe(false);
          expect(r.leftBehind).toEqual([]);
        } finally {
          await new Promise((resolve) => corrupt.server.close(resolve));
        }
      },
    );
  },
);

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
