// Whether a name on a D-Bus bus answers, asked in a bounded time. A hung bus, or a service that
// holds a name and never replies, must not hang svc: libdbus (inside a native keyring binding)
// connects synchronously and would block the whole process. This speaks just enough of the D-Bus
// wire protocol (the EXTERNAL authentication, Hello, and one Peer.Ping) over the bus's Unix socket,
// with a timer that closes the socket. It knows nothing of the service.
import { connect, type Socket } from 'node:net';

/** Where a bus listens: the Unix socket of a bus address (`unix:path=…` or `unix:abstract=…`). */
export function busSocketPath(address: string): string | undefined {
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    if (colon === -1 || entry.slice(0, colon) !== 'unix') continue;
    const params = new Map(
      entry
        .slice(colon + 1)
        .split(',')
        .map((pair) => {
          const eq = pair.indexOf('=');
          return [pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1))] as const;
        }),
    );
    const path = params.get('path');
    if (path) return path;
    const abstract = params.get('abstract');
    // Node names an abstract socket (Linux) with a leading NUL.
    if (abstract) return `\0${abstract}`;
  }
  return undefined;
}

/** Why a name did not answer: one line, as the bus or the clock put it. */
export class BusUnanswered extends Error {}

const NO_OWNER = /^org\.freedesktop\.DBus\.Error\.(ServiceUnknown|NameHasNoOwner|Spawn\.\w+)$/;

/**
 * Resolves once `name` answers a `Ping` on the bus at `address` (any reply from it, an error such
 * as UnknownMethod included: it is there and speaks); rejects with BusUnanswered when the bus
 * cannot be reached, refuses us, has no such name (nor can start it), or the whole exchange takes
 * longer than `timeoutMs`.
 */
export function pingBusName(address: string, name: string, path: string, timeoutMs: number, uid = process.getuid?.() ?? 0): Promise<void> {
  const socketPath = busSocketPath(address);
  if (socketPath === undefined) return Promise.reject(new BusUnanswered(`the session bus address is not a Unix socket svc can reach (${address.split(',')[0]})`));
  return new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => done(new BusUnanswered(`no answer from ${name} on the session bus within ${timeoutMs / 1000} s`)), timeoutMs);
    let received = Buffer.alloc(0);
    let authenticated = false;
    const socket: Socket = connect(socketPath);
    socket.on('error', (error: NodeJS.ErrnoException) => done(new BusUnanswered(`the session bus cannot be reached (${error.code ?? error.message})`)));
    socket.on('close', () => done(new BusUnanswered('the session bus closed the connection')));
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from([0]), Buffer.from(`AUTH EXTERNAL ${Buffer.from(String(uid)).toString('hex')}\r\n`)]));
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!authenticated) {
        const end = received.indexOf('\r\n');
        if (end === -1) return;
        const line = received.subarray(0, end).toString('latin1');
        received = received.subarray(end + 2);
        if (!line.startsWith('OK ')) return done(new BusUnanswered(`the session bus refused svc (${line.split(' ')[0]})`));
        authenticated = true;
        socket.write(
          Buffer.concat([
            Buffer.from('BEGIN\r\n'),
            methodCall(1, { path: '/org/freedesktop/DBus', iface: 'org.freedesktop.DBus', member: 'Hello', destination: 'org.freedesktop.DBus' }),
            methodCall(2, { path, iface: 'org.freedesktop.DBus.Peer', member: 'Ping', destination: name }),
          ]),
        );
      }
      for (;;) {
        const message = nextMessage(received);
        if (!message) return;
        received = received.subarray(message.length);
        if (message.replySerial !== 2) continue;
        if (message.type === METHOD_RETURN) return done();
        if (message.type === ERROR) {
          if (message.errorName !== undefined && NO_OWNER.test(message.errorName)) return done(new BusUnanswered(`nothing answers to ${name} on the session bus (${message.errorName})`));
          return done();
        }
      }
    });
  });
}

const METHOD_CALL = 1;
const METHOD_RETURN = 2;
const ERROR = 3;

/** A method call with no arguments, little-endian. */
function methodCall(serial: number, call: { path: string; iface: string; member: string; destination: string }): Buffer {
  const fields = new Writer();
  const field = (code: number, signature: string, value: string) => {
    fields.align(8);
    fields.byte(code);
    fields.signature(signature);
    if (signature === 'g') fields.signature(value);
    else fields.string(value);
  };
  field(1, 'o', call.path);
  field(2, 's', call.iface);
  field(3, 's', call.member);
  field(6, 's', call.destination);
  const header = Buffer.alloc(16);
  header.write('l', 0, 'latin1');
  header[1] = METHOD_CALL;
  header[2] = 0;
  header[3] = 1;
  header.writeUInt32LE(0, 4);
  header.writeUInt32LE(serial, 8);
  const body = fields.bytes();
  header.writeUInt32LE(body.length, 12);
  const padding = (8 - ((16 + body.length) % 8)) % 8;
  return Buffer.concat([header, body, Buffer.alloc(padding)]);
}

/** Bytes of header fields, aligned as if they followed the 16 bytes of the fixed header. */
class Writer {
  private readonly parts: number[] = [];
  align(to: number): void {
    while ((16 + this.parts.length) % to !== 0) this.parts.push(0);
  }
  byte(value: number): void {
    this.parts.push(value);
  }
  signature(value: string): void {
    this.parts.push(value.length, ...Buffer.from(value, 'latin1'), 0);
  }
  string(value: string): void {
    this.align(4);
    const text = Buffer.from(value, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(text.length);
    this.parts.push(...length, ...text, 0);
  }
  bytes(): Buffer {
    return Buffer.from(this.parts);
  }
}

interface Message {
  type: number;
  length: number;
  replySerial?: number;
  errorName?: string;
}

/** The first whole message of `data`, with the header fields a reply is known by; undefined until it has all come. */
function nextMessage(data: Buffer): Message | undefined {
  if (data.length < 16) return undefined;
  const little = data[0] === 0x6c;
  const u32 = (at: number) => (little ? data.readUInt32LE(at) : data.readUInt32BE(at));
  const bodyLength = u32(4);
  const fieldsLength = u32(12);
  const fieldsEnd = 16 + fieldsLength;
  const length = fieldsEnd + ((8 - (fieldsEnd % 8)) % 8) + bodyLength;
  if (data.length < length) return undefined;
  const message: Message = { type: data[1]!, length };
  let at = 16;
  while (at < fieldsEnd) {
    at += (8 - (at % 8)) % 8;
    const code = data[at]!;
    const signatureLength = data[at + 1]!;
    const signature = data.toString('latin1', at + 2, at + 2 + signatureLength);
    at += 3 + signatureLength;
    if (signature === 'u') {
      at += (4 - (at % 4)) % 4;
      if (code === 5) message.replySerial = u32(at);
      at += 4;
    } else if (signature === 's' || signature === 'o') {
      at += (4 - (at % 4)) % 4;
      const size = u32(at);
      if (code === 4) message.errorName = data.toString('utf8', at + 4, at + 4 + size);
      at += 4 + size + 1;
    } else if (signature === 'g') {
      at += 1 + data[at]! + 1;
    } else {
      // No other type is a header field's: a message svc does not read.
      break;
    }
  }
  return message;
}
