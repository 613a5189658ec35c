// A session bus of the test's own on a Unix socket, for what a real dbus-daemon and GNOME Keyring
// cannot be made to do: a bus that sends garbage or never answers, a prompt that never completes,
// a signal forged by another connection. `fakeBus` authenticates anyone, answers Hello, and hands
// every later message to the test; `fakeSecretService` answers as a Secret Service would, as told.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach } from 'vitest';

import {
  bodyOf,
  decodeMessage,
  encodeMessage,
  MESSAGE,
  type Message,
  type Value,
  Variant,
} from '../../src/config/keyring/dbus.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/**
 * A bus on a Unix socket whose every connection `serve` answers; its address (`unix:path=…`).
 * Closed after the test.
 */
export async function rawBus(serve: (socket: Socket) => void): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'svc-dbus-')), 'bus');
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    serve(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return `unix:path=${path}`;
}

/** What a test's bus says to the connection a message came on. */
export class BusPeer {
  private serial = 100;
  constructor(readonly socket: Socket) {}

  reply(to: Message, signature = '', body: Value[] = [], sender?: string): void {
    this.socket.write(
      encodeMessage(
        MESSAGE.return,
        ++this.serial,
        { replySerial: to.serial, signature, sender },
        body,
      ),
    );
  }

  error(to: Message, errorName: string, text = ''): void {
    this.socket.write(
      encodeMessage(
        MESSAGE.error,
        ++this.serial,
        { replySerial: to.serial, errorName, signature: 's' },
        [text],
      ),
    );
  }

  signal(
    fields: { path: string; interface: string; member: string; sender?: string },
    signature: string,
    body: Value[],
  ): void {
    this.socket.write(encodeMessage(MESSAGE.signal, ++this.serial, { ...fields, signature }, body));
  }
}

/**
 * A bus that authenticates anyone, answers Hello (":1.42"), then hands each later message to
 * `serve`.
 */
export function fakeBus(serve: (message: Message, peer: BusPeer) => void): Promise<string> {
  return rawBus((socket) => {
    const peer = new BusPeer(socket);
    let data = Buffer.alloc(0);
    let begun = false;
    let greeted = false;
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (!begun) {
        if (!greeted && data.includes('\r\n')) {
          socket.write('OK 0123456789abcdef0123456789abcdef\r\n');
          greeted = true;
        }
        const at = data.indexOf('BEGIN\r\n');
        if (at === -1) return;
        data = data.subarray(at + 7);
        begun = true;
      }
      for (;;) {
        const next = decodeMessage(data);
        if (!next) return;
        data = data.subarray(next.length);
        if (next.message.member === 'Hello') peer.reply(next.message, 's', [':1.42']);
        else serve(next.message, peer);
      }
    });
  });
}

/** The unique name the fake Secret Service holds org.freedesktop.secrets with. */
export const SECRETS_OWNER = ':1.7';

export interface FakeSecretService {
  /** The items SearchItems finds: unlocked and locked. */
  items?: { unlocked: string[]; locked: string[] };
  /** The secret each item keeps (GetSecret); default: none (an error). */
  secrets?: Record<string, string>;
  /** Whether Unlock asks for a prompt; default: no. */
  unlockPrompts?: boolean;
  /** Whether each Delete asks for a prompt; default: no. */
  deletePrompts?: boolean;
  /** What happens when svc shows a prompt (Prompt): the test answers, or not. */
  onPrompt?: (prompt: string, peer: BusPeer) => void;
  /** Every call svc made, as `Interface.Member path`. */
  calls?: string[];
}

/**
 * A Secret Service on a bus of its own (org.freedesktop.secrets owned by SECRETS_OWNER): what it
 * finds, keeps and asks is the test's. Its replies and signals carry its sender, as a bus sets it.
 */
export function fakeSecretService(service: FakeSecretService): Promise<string> {
  let prompts = 0;
  const promptPath = () => `/org/freedesktop/secrets/prompt/p${++prompts}`;
  return fakeBus((message, peer) => {
    service.calls?.push(
      `${message.interface?.replace(/^org\.freedesktop\./, '')}.${message.member} ${message.path}`,
    );
    const answer = (signature = '', body: Value[] = []) =>
      peer.reply(message, signature, body, SECRETS_OWNER);
    switch (message.member) {
      case 'GetNameOwner':
        return peer.reply(message, 's', [SECRETS_OWNER]);
      case 'AddMatch':
        return peer.reply(message);
      case 'Ping':
      case 'Close':
        return answer();
      case 'OpenSession':
        return answer('vo', [new Variant('s', ''), '/org/freedesktop/secrets/session/s1']);
      case 'SearchItems': {
        const { unlocked = [], locked = [] } = service.items ?? {};
        return answer('aoao', [unlocked, locked]);
      }
      case 'Unlock': {
        const [objects] = bodyOf(message) as [string[]];
        return service.unlockPrompts
          ? answer('aoo', [[], promptPath()])
          : answer('aoo', [objects, '/']);
      }
      case 'Delete':
        return answer('o', [service.deletePrompts ? promptPath() : '/']);
      case 'Prompt':
        answer();
        return service.onPrompt?.(message.path!, peer);
      case 'GetSecret': {
        const secret = service.secrets?.[message.path!];
        if (secret === undefined)
          return peer.error(message, 'org.freedesktop.Secret.Error.NoSuchObject');
        return answer('(oayays)', [
          [
            '/org/freedesktop/secrets/session/s1',
            Buffer.alloc(0),
            Buffer.from(secret),
            'text/plain',
          ],
        ]);
      }
      default:
        return peer.error(
          message,
          'org.freedesktop.DBus.Error.UnknownMethod',
          `no ${message.member} here`,
        );
    }
  });
}

/**
 * A prompt's Completed signal: `dismissed`, or done with `paths` (what it unlocked), sent as
 * `sender`.
 */
export function completed(
  peer: BusPeer,
  prompt: string,
  sender: string,
  dismissed: boolean,
  paths: string[] = [],
): void {
  peer.signal(
    { path: prompt, interface: 'org.freedesktop.Secret.Prompt', member: 'Completed', sender },
    'bv',
    [dismissed, new Variant('ao', paths)],
  );
}
