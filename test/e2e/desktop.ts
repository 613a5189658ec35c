// A person's desktop session for the keyring tests: a session D-Bus of the test's own and, on it, a
// real Secret Service (GNOME Keyring). It needs dbus-daemon, dbus-send, gnome-keyring-daemon and
// secret-tool (Debian: dbus, gnome-keyring, libsecret-tools); MISSING_KEYRING_TOOLS names those
// not installed here, and REQUIRE_KEYRING says whether their absence fails the run
// (SVC_TEST_REQUIRE_KEYRING, as .ci/run sets) rather than skipping the tests.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TOOLS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'] as const;
const onPath = (command: string): boolean =>
  spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
export const MISSING_KEYRING_TOOLS = TOOLS.filter((tool) => !onPath(tool));
export const REQUIRE_KEYRING = !['', '0'].includes(process.env.SVC_TEST_REQUIRE_KEYRING ?? '');
export const INSTALL_KEYRING_TOOLS =
  'apt-get install -y --no-install-recommends dbus gnome-keyring libsecret-tools';

/**
 * A session bus that starts nothing by itself (no service activation): the test decides who
 * answers.
 */
const BUS_CONFIG = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
`;

/** The first line a child prints on stdout. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`exited (${code}) before printing a line`)));
  });
}

export interface Desktop {
  /** The environment of a person's session: the bus, a home of its own. */
  env: Record<string, string>;
  home: string;
  keyring?: ChildProcess;
}

/**
 * A session bus of its own in `home` (an empty folder), and on it GNOME Keyring: unlocked with a
 * password, locked, without any keyring yet (`empty`: no default collection), or none. What it
 * starts goes into `started`, for the caller to stop.
 */
export async function startDesktop(
  home: string,
  started: ChildProcess[],
  keyring: 'unlocked' | 'locked' | 'empty' | 'none' = 'unlocked',
): Promise<Desktop> {
  const config = join(home, 'bus.conf');
  writeFileSync(config, BUS_CONFIG);
  const bus = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  started.push(bus);
  const address = await firstLine(bus);
  const env = { DBUS_SESSION_BUS_ADDRESS: address, HOME: home, XDG_RUNTIME_DIR: home };
  const result: Desktop = { env, home };
  if (keyring === 'none') return result;
  if (keyring === 'locked') {
    // The login keyring made (with a password) by a first daemon; a second one finds it locked.
    const first = await keyringDaemon(env, true, started);
    first.kill('SIGTERM');
    await new Promise((resolve) => first.once('exit', resolve));
  }
  result.keyring = await keyringDaemon(env, keyring === 'unlocked', started);
  return result;
}

/**
 * gnome-keyring-daemon on the bus of `env`, its login keyring unlocked with a password or left
 * locked; once it answers there.
 */
export async function keyringDaemon(
  env: Record<string, string>,
  unlocked: boolean,
  started: ChildProcess[],
): Promise<ChildProcess> {
  const args = ['--foreground', '--components=secrets', ...(unlocked ? ['--unlock'] : [])];
  const daemon = spawn('gnome-keyring-daemon', args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  started.push(daemon);
  daemon.stdin.end(unlocked ? 'a password' : '');
  // Ready once it holds org.freedesktop.secrets on the bus.
  for (let tries = 0; tries < 100; tries++) {
    const owned = spawnSync(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ],
      {
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
      },
    );
    if (owned.stdout.includes('boolean true')) return daemon;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('gnome-keyring-daemon did not take org.freedesktop.secrets on the test bus');
}

export function secretTool(
  at: Desktop,
  args: string[],
  input?: string,
): { status: number | null; stdout: string; stderr: string } {
  return spawnSync('secret-tool', args, {
    env: { PATH: process.env.PATH ?? '', ...at.env },
    encoding: 'utf8',
    timeout: 10_000,
    input,
  });
}
