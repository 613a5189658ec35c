// `svc mock --ready-file F &` then `svc ready F`, as a script runs them, by bash with the built
// svc, at a path where an earlier run left its state: svc ready must report this run's server,
// never the earlier one's, however the two processes race. The earlier state's pid is given to a
// process that runs (as a container started anew numbers its processes alike), or to none.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { baseEnv, collect, type Result, SVC, useWorld } from './harness.js';

const world = useWorld();

const STALE_URL = 'http://127.0.0.1:1';
const sleepers: ChildProcess[] = [];
afterEach(() => {
  for (const sleeper of sleepers.splice(0)) sleeper.kill();
});

/** A process that runs for the test, unrelated to svc: the pid an earlier run's server had. */
function runningPid(): number {
  const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
  sleepers.push(sleeper);
  return sleeper.pid!;
}

/** The state an earlier run left at `file`, written a minute ago, mode 0600. */
function leftBehind(file: string, state: object): void {
  const earlier = {
    command: 'svc mock',
    written_at: new Date(Date.now() - 60_000).toISOString(),
    ...state,
  };
  writeFileSync(file, JSON.stringify(earlier) + '\n', { mode: 0o600 });
}

let bin: string | undefined;

/**
 * Runs `script` in bash with the built svc on the PATH (exec'd, as an installed one), `$f` the
 * state file.
 */
function bash(script: string, file: string): Promise<Result> {
  if (!bin) {
    bin = world.tempDir('svc-bin-');
    writeFileSync(
      join(bin, 'svc'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SVC)} "$@"\n`,
      { mode: 0o755 },
    );
  }
  const child = spawn('bash', ['-c', `f=${JSON.stringify(file)}\n${script}`], {
    env: { ...baseEnv(world.dir), PATH: `${bin}:${process.env.PATH}`, CI: 'true' },
  });
  child.stdin.end();
  return collect(child, 40_000);
}

/** Prints the status of GET URL/v1/usage with no key: 401 from a live svc mock. */
const STATUS_OF = `${JSON.stringify(process.execPath)} -e 'fetch(process.argv[1] + "/v1/usage").then((r) => console.log(r.status), () => console.log("none"))'`;

/**
 * The mock and svc ready started as the CI recipe (docs/guides/webhooks-and-ci.md) starts them; svc
 * ready's URL, and what answers there, then the mock stopped.
 */
const MOCK_THEN_READY = `
svc mock --port 0 --quiet --ready-file "$f" > /dev/null &
mock=$!
url=$(svc ready "$f" --wait 20); code=$?
echo "$url"
${STATUS_OF} "$url"
kill $mock; wait $mock
exit $code`;

describe('svc ready after a server started in the background, at a path an earlier run used', () => {
  for (const round of [1, 2, 3]) {
    it(`an earlier run's listening state, its pid now another process's: this run's URL, never the earlier one (round ${round})`, async () => {
      const file = join(world.tempDir('svc-ready-e2e-'), 'mock');
      leftBehind(file, { state: 'listening', pid: runningPid(), url: STALE_URL });
      const result = await bash(MOCK_THEN_READY, file);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toContain(STALE_URL);
      // This run's mock answers at the URL printed (401: no key).
      expect(result.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n401\n$/);
    });
  }

  it("an earlier run's failed state: this run's failure (its port taken: exit 2), not the earlier one's (exit 3)", async () => {
    const busy = await heldPort();
    try {
      const port = (busy.address() as { port: number }).port;
      const file = join(world.tempDir('svc-ready-e2e-'), 'mock');
      leftBehind(file, {
        state: 'failed',
        pid: runningPid(),
        exit_code: 3,
        error: 'the earlier run',
        hints: [],
      });
      const result = await bash(
        `svc mock --port ${port} --quiet --ready-file "$f" 2>/dev/null &\nsvc ready "$f" --wait 20`,
        file,
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: svc mock \\(pid \\d+\\) could not start: port ${port} is in use; `,
          'm',
        ),
      );
      expect(result.stderr).not.toContain('the earlier run');
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('svc ready started before the server: the URL once the server listens', async () => {
    const file = join(world.tempDir('svc-ready-e2e-'), 'mock');
    leftBehind(file, { state: 'listening', pid: runningPid(), url: STALE_URL });
    const script = `
svc ready "$f" --wait 20 > "$f.url" & ready=$!
sleep 0.5
svc mock --port 0 --quiet --ready-file "$f" > /dev/null & mock=$!
wait $ready; code=$?
url=$(cat "$f.url")
echo "$url"
${STATUS_OF} "$url"
kill $mock; wait $mock
exit $code`;
    const result = await bash(script, file);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n401\n$/);
    expect(result.stdout).not.toContain(STALE_URL);
  });
});

/** A port held by a server of this test, so that svc mock cannot bind it. */
function heldPort(): Promise<Server> {
  const server = createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
