// `svc mock`'s banner on a terminal of 80 and 60 columns, in a real pseudo-terminal (util-linux
// `script`, its size set with stty): each demo key whole on one line, beside what it is for or
// under it, and the commands to copy whole; in a pipe it is plain lines (basics.test.ts).
import { describe, expect, it } from 'vitest';

import { inSizedTerminal, untilShown, useWorld } from './harness.js';

const world = useWorld();
const CONTROL = /\u001b\[[0-9;?]*[A-Za-z]/g;

describe.each([80, 60])('svc mock on a terminal of %i columns', (columns) => {
  it('shows each key whole on one line, and the commands to copy whole', async () => {
    let banner = '';
    const run = await inSizedTerminal('mock --port 0', {
      columns,
      configDir: world.dir,
      scratch: world.tempDir('svc-pty-'),
      env: { SVC_DATA_DIR: world.tempDir('svc-pty-data-') },
      whileRunning: async (pid, output) => {
        await untilShown(
          output,
          (text) => /svc reports list/.test(text) && /given a signing secret/.test(text),
        );
        banner = output();
        process.kill(pid, 'SIGINT');
      },
    });
    expect(run.code).toBe(0);
    const lines = banner.replace(/\r\n/g, '\n').replace(CONTROL, '').split('\n');
    const keys = lines.join('\n').match(/svc_sk_(live|test)_[0-9a-f]+/g) ?? [];
    expect(new Set(keys).size).toBe(8);
    for (const key of keys) expect(key).toMatch(/^svc_sk_(live|test)_[0-9a-f]{32}$/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}export SVC_API_KEY=svc_sk_test_[0-9a-f]{32}$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}export SVC_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/),
    );
    // Wider than the terminal only a command to copy, alone on its line.
    for (const line of lines)
      if (!line.startsWith('  export '))
        expect([...line].length, line).toBeLessThanOrEqual(columns);
  });
});
