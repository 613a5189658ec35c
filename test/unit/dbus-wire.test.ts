// The D-Bus wire format of config/keyring/dbus.ts: values written and read back, alignment, a
// big-endian message, and a bus that sends garbage, a truncated message or a length that lies: an
// error, never a crash, a loop or a buffer without end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  bodyOf,
  BusConnection,
  BusError,
  BusUnanswered,
  decodeMessage,
  encodeMessage,
  MAX_MESSAGE_BYTES,
  MESSAGE,
  type Value,
  Variant,
  WireError,
  WireReader,
  WireWriter,
} from '../../src/config/keyring/dbus.js';
import { fakeBus, rawBus } from '../support/fake-bus.js';

const roundTrip = (signature: string, values: Value[], offset = 0): Value[] => {
  const bytes = new WireWriter(offset).write(signature, values).bytes();
  const reader = new WireReader(bytes, true, offset);
  const back = reader.read(signature);
  expect(reader.at).toBe(bytes.length);
  return back;
};

describe('values written and read back', () => {
  it.each([
    ['y', [0], [255]],
    ['b', [true], [false]],
    ['n', [-32768], [32767]],
    ['q', [0], [65535]],
    ['i', [-2147483648], [2147483647]],
    ['u', [0], [4294967295]],
    ['x', [-(2n ** 63n)], [2n ** 63n - 1n]],
    ['t', [0n], [2n ** 64n - 1n]],
    ['d', [-1.5], [Math.PI]],
    ['s', [''], ['héllo, wörld ✓']],
    ['o', ['/'], ['/org/freedesktop/secrets/collection/login/12']],
    ['g', [''], ['a{o(oayays)}']],
  ] as [string, Value[], Value[]][])('%s', (signature, low, high) => {
    expect(roundTrip(signature, low)).toEqual(low);
    expect(roundTrip(signature, high)).toEqual(high);
  });

  it('v, a{ss}, a{sv}, ao, ay, (oayays) and a{o(oayays)}', () => {
    const secret = [
      '/org/freedesktop/secrets/session/1',
      Buffer.alloc(0),
      Buffer.from('svc_sk_test_x'),
      'text/plain',
    ];
    const values: Value[] = [
      new Variant('s', ''),
      new Map<Value, Value>([
        ['service', 'svc'],
        ['account', 'default'],
      ]),
      new Map<Value, Value>([
        ['org.freedesktop.Secret.Item.Label', new Variant('s', 'svc: default')],
        [
          'org.freedesktop.Secret.Item.Attributes',
          new Variant('a{ss}', new Map<Value, Value>([['service', 'svc']])),
        ],
        ['nested', new Variant('v', new Variant('ao', ['/a', '/b']))],
      ]),
      ['/a', '/b/c'],
      Buffer.from([0, 1, 2, 255]),
      secret,
      new Map<Value, Value>([['/org/freedesktop/secrets/collection/login/1', secret]]),
    ];
    expect(roundTrip('va{ss}a{sv}aoay(oayays)a{o(oayays)}', values)).toEqual(values);
  });

  it('empty arrays and dictionaries keep the padding of their element', () => {
    // An empty array of structs: its length, then the padding to 8 the struct asks for, then
    // nothing.
    const bytes = new WireWriter().write('ya(y)', [1, []]).bytes();
    expect([...bytes]).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(roundTrip('ya(y)a{ss}ay', [1, [], new Map(), Buffer.alloc(0)])).toEqual([
      1,
      [],
      new Map(),
      Buffer.alloc(0),
    ]);
  });

  it('aligns each value to its size, counted from the start of the message', () => {
    expect([...new WireWriter().write('yu', [7, 1]).bytes()]).toEqual([7, 0, 0, 0, 1, 0, 0, 0]);
    expect([...new WireWriter().write('yt', [7, 1n]).bytes()]).toEqual([
      7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect([...new WireWriter().write('y(y)', [7, [8]]).bytes()]).toEqual([
      7, 0, 0, 0, 0, 0, 0, 0, 8,
    ]);
    // Written at an offset of 4 in its message, a u needs no padding.
    expect([...new WireWriter(4).write('u', [1]).bytes()]).toEqual([1, 0, 0, 0]);
    expect(roundTrip('yqyiyxyd', [1, 2, 3, 4, 5, 6n, 7, 8.5], 3)).toEqual([
      1,
      2,
      3,
      4,
      5,
      6n,
      7,
      8.5,
    ]);
  });

  it('any string, byte array and dictionary of strings survives the trip', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('\0')),
        fc.uint8Array({ maxLength: 64 }),
        fc.dictionary(
          fc.string().filter((s) => !s.includes('\0')),
          fc.string().filter((s) => !s.includes('\0')),
        ),
        (text, bytes, dict) => {
          const map = new Map<Value, Value>(Object.entries(dict));
          const values: Value[] = [text, Buffer.from(bytes), map, new Variant('a{ss}', map)];
          expect(roundTrip('saya{ss}v', values)).toEqual(values);
        },
      ),
    );
  });

  it('refuses values that do not fit their signature, and signatures it does not know', () => {
    expect(() => new WireWriter().write('y', [256])).toThrow(WireError);
    expect(() => new WireWriter().write('u', [-1])).toThrow(WireError);
    expect(() => new WireWriter().write('s', [1])).toThrow(WireError);
    expect(() => new WireWriter().write('s', ['a\0b'])).toThrow(WireError);
    expect(() => new WireWriter().write('o', ["/a'b"])).toThrow(WireError);
    expect(() => new WireWriter().write('o', ['/a/'])).toThrow(WireError);
    expect(() => new WireWriter().write('ss', ['a'])).toThrow(WireError);
    for (const signature of ['a{vs}', '(s', 'h', 'a'.repeat(300)]) {
      expect(() => new WireWriter().write(signature, [])).toThrow(WireError);
      expect(() => new WireReader(Buffer.alloc(8), true).read(signature)).toThrow(WireError);
    }
  });
});

describe('messages', () => {
  it('a method call written is read back with its header fields and body', () => {
    const bytes = encodeMessage(
      MESSAGE.call,
      7,
      {
        destination: 'org.freedesktop.secrets',
        path: '/org/freedesktop/secrets',
        interface: 'org.freedesktop.Secret.Service',
        member: 'OpenSession',
        signature: 'sv',
      },
      ['plain', new Variant('s', '')],
    );
    expect(bytes.length % 8).toBe(((bytes.readUInt32LE(4) % 8) + 8) % 8);
    const { message, length } = decodeMessage(Buffer.concat([bytes, Buffer.from('more')]))!;
    expect(length).toBe(bytes.length);
    expect(message).toMatchObject({
      type: MESSAGE.call,
      serial: 7,
      destination: 'org.freedesktop.secrets',
      member: 'OpenSession',
      signature: 'sv',
    });
    expect(bodyOf(message)).toEqual(['plain', new Variant('s', '')]);
  });

  it('reads a big-endian reply', () => {
    // A method return, big-endian (B), serial 2, reply to 1, signature "ao", body ["/a", "/bc"].
    const fields = Buffer.from([
      // a(yv): length 16: (5, "u", 1), then (8, "g", "ao") at the next multiple of 8
      0, 0, 0, 16, 5, 1, 0x75, 0, 0, 0, 0, 1, 8, 1, 0x67, 0, 2, 0x61, 0x6f, 0,
    ]);
    const body = Buffer.from([
      0, 0, 0, 16, 0, 0, 0, 2, 0x2f, 0x61, 0, 0, 0, 0, 0, 3, 0x2f, 0x62, 0x63, 0,
    ]);
    const head = Buffer.from([0x42, MESSAGE.return, 0, 1, 0, 0, 0, body.length, 0, 0, 0, 2]);
    const unpadded = Buffer.concat([head, fields]);
    const message = Buffer.concat([unpadded, Buffer.alloc((8 - (unpadded.length % 8)) % 8), body]);
    const decoded = decodeMessage(message)!;
    expect(decoded.length).toBe(message.length);
    expect(decoded.message).toMatchObject({
      type: MESSAGE.return,
      serial: 2,
      replySerial: 1,
      signature: 'ao',
      littleEndian: false,
    });
    expect(bodyOf(decoded.message)).toEqual([['/a', '/bc']]);
  });

  it('waits for the rest of a message cut short, and refuses one over the cap or of another protocol', () => {
    const bytes = encodeMessage(MESSAGE.return, 3, { replySerial: 1, signature: 's' }, [
      'x'.repeat(100),
    ]);
    for (let cut = 0; cut < bytes.length; cut++)
      expect(decodeMessage(bytes.subarray(0, cut))).toBeUndefined();
    const huge = Buffer.from(bytes);
    huge.writeUInt32LE(MAX_MESSAGE_BYTES, 4);
    expect(() => decodeMessage(huge)).toThrow(/over the 1048576 svc takes/);
    const hugeFields = Buffer.from(bytes);
    hugeFields.writeUInt32LE(0xffffffff, 12);
    expect(() => decodeMessage(hugeFields)).toThrow(WireError);
    expect(() => decodeMessage(Buffer.from('HTTP/1.1 200 OK\r\n\r\n'))).toThrow(
      /not a D-Bus message/,
    );
  });

  it('a body or an array whose length lies is an error, not a read past the end', () => {
    const bytes = encodeMessage(MESSAGE.return, 3, { replySerial: 1, signature: 'as' }, [
      ['a', 'b'],
    ]);
    const { message } = decodeMessage(bytes)!;
    const lying = Buffer.from(message.body);
    lying.writeUInt32LE(1000, 0);
    expect(() => bodyOf({ ...message, body: lying })).toThrow(WireError);
    const stringLies = Buffer.from(message.body);
    stringLies.writeUInt32LE(0xfffffff0, 4);
    expect(() => bodyOf({ ...message, body: stringLies })).toThrow(WireError);
    expect(() => bodyOf({ ...message, body: message.body.subarray(0, 9) })).toThrow(WireError);
    expect(() => bodyOf({ ...message, signature: 'asu' })).toThrow(WireError);
    // An object path that is not one (a quote would end a match rule's value): refused as it is
    // read.
    const notAPath = encodeMessage(MESSAGE.return, 4, { replySerial: 1, signature: 's' }, [
      "/x',path='/y",
    ]);
    const decoded = decodeMessage(notAPath)!.message;
    expect(() => bodyOf({ ...decoded, signature: 'o' })).toThrow(/object path/);
  });

  it('any bytes at all: a message, undefined or a WireError, and never a crash', () => {
    const valid = encodeMessage(MESSAGE.return, 3, { replySerial: 1, signature: 'a{sv}' }, [
      new Map<Value, Value>([['a', new Variant('ao', ['/x'])]]),
    ]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), {
          maxLength: 6,
        }),
        fc.nat(valid.length),
        (edits, cut) => {
          const bytes = Buffer.from(valid);
          for (const [at, byte] of edits) bytes[at] = byte;
          try {
            const decoded = decodeMessage(bytes.subarray(0, cut));
            if (decoded) bodyOf(decoded.message);
          } catch (error) {
            expect(error).toBeInstanceOf(WireError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('containers nest 32 deep at most, as the D-Bus specification allows: arrays, structs and variants counted together', () => {
    const arrays = (depth: number) => 'a'.repeat(depth) + 'y';
    const structs = (depth: number) => '('.repeat(depth) + 'y' + ')'.repeat(depth);
    const nested = (depth: number, inner: Value): Value =>
      depth === 0 ? inner : [nested(depth - 1, inner)];
    expect(roundTrip(arrays(32), [nested(31, Buffer.from([7]))])).toEqual([
      nested(31, Buffer.from([7])),
    ]);
    expect(roundTrip(structs(32), [nested(32, 7)])).toEqual([nested(32, 7)]);
    for (const signature of [arrays(33), structs(33), `a${structs(32)}`, `(${arrays(32)})`]) {
      expect(() => new WireWriter().write(signature, []), signature).toThrow(/nested too deep/);
      expect(() => new WireReader(Buffer.alloc(1024), true).read(signature), signature).toThrow(
        /nested too deep/,
      );
    }
    // Variants within variants, the innermost holding a byte: 3 bytes a level ("v"), then "y" and
    // the byte.
    const variants = (depth: number) =>
      Buffer.concat([
        ...Array.from({ length: depth - 1 }, () => Buffer.from([1, 0x76, 0])),
        Buffer.from([1, 0x79, 0, 7]),
      ]);
    expect(new WireReader(variants(32), true).read('v')).toHaveLength(1);
    expect(() => new WireReader(variants(33), true).read('v')).toThrow(/nested too deep/);
    // A variant of 30 arrays is 31 deep; in a struct, 32; in two, 33.
    const mixed = new WireWriter().write('v', [new Variant(arrays(30), [])]).bytes();
    expect(new WireReader(mixed, true).read('v')).toHaveLength(1);
    expect(new WireReader(mixed, true).read('(v)')).toHaveLength(1);
    expect(() => new WireReader(mixed, true).read('((v))')).toThrow(/nested too deep/);
    expect(() => new WireWriter().write('((v))', [[[new Variant(arrays(30), [])]]])).toThrow(
      /nested too deep/,
    );
  });

  it('a message of more containers than any reply svc asks for is refused, however shallow; one of many plain values is read', () => {
    // 70,000 structs of one byte each: 8 bytes apiece, well within the size a message may have.
    const structs = new WireWriter()
      .write('a(y)', [Array.from({ length: 70_000 }, () => [1])])
      .bytes();
    expect(() => new WireReader(structs, true).read('a(y)')).toThrow(
      /more than 65536 arrays, structs and variants/,
    );
    const paths = new WireWriter()
      .write('ao', [Array.from({ length: 70_000 }, (_, i) => `/${i}`)])
      .bytes();
    expect((new WireReader(paths, true).read('ao')[0] as string[]).length).toBe(70_000);
  });

  it('variants inside variants without end are refused, not followed until the stack runs out', () => {
    // "v" then the signature "v" again and again: 3 bytes a level.
    const bytes = Buffer.alloc(3 * 10_000);
    for (let at = 0; at < bytes.length; at += 3) bytes.set([1, 0x76, 0], at);
    expect(() => new WireReader(bytes, true).read('v')).toThrow(/nested too deep|cut short/);
  });
});

describe('a connection to a bus that is a peer like any other', () => {
  const call = {
    destination: 'org.example',
    path: '/',
    interface: 'org.example.I',
    member: 'M',
    signature: 's',
    body: ['hi'],
  };

  it('matches replies by serial, and an error reply is its D-Bus name', async () => {
    const address = await fakeBus((message, peer) => {
      if (message.member === 'M')
        peer.reply(message, 'as', [[...(bodyOf(message) as string[]), 'back']]);
      else peer.error(message, 'org.example.Error.No', 'no such thing');
    });
    const connection = await BusConnection.open(address, 2_000);
    expect(connection.uniqueName).toBe(':1.42');
    const reply = await connection.call(call, 2_000);
    expect(bodyOf(reply)).toEqual([['hi', 'back']]);
    const failed = await connection
      .call({ ...call, member: 'Other' }, 2_000)
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(BusError);
    expect(failed).toMatchObject({ dbusName: 'org.example.Error.No', message: 'no such thing' });
    connection.close();
  });

  it('a bus that never answers: the call is an error within its bound, the socket closed', async () => {
    const address = await fakeBus(() => {});
    const connection = await BusConnection.open(address, 2_000);
    const started = Date.now();
    await expect(connection.call(call, 300)).rejects.toThrow(BusUnanswered);
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect(connection.call(call, 300)).rejects.toThrow(/no answer/);
  });

  it('a bus silent from the start: opening it is an error within its bound', async () => {
    const address = await rawBus(() => {});
    const started = Date.now();
    await expect(BusConnection.open(address, 300)).rejects.toThrow(
      /no answer from the session bus within 0.3 s/,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('a bus that sends a message over the cap, or garbage, is closed: an error, not an endless buffer', async () => {
    const address = await fakeBus((_, { socket }) => {
      const header = Buffer.alloc(16);
      header.write('l', 0, 'latin1');
      header.set([MESSAGE.return, 0, 1], 1);
      header.writeUInt32LE(64 * 1024 * 1024, 4);
      socket.write(header);
      socket.write(Buffer.alloc(64 * 1024));
    });
    const connection = await BusConnection.open(address, 2_000);
    await expect(connection.call(call, 2_000)).rejects.toThrow(
      /sent what svc cannot read .*over the 1048576/,
    );
  });

  it('a bus that refuses the authentication, or closes at once', async () => {
    const refusing = await rawBus((socket) =>
      socket.on('data', () => socket.write('REJECTED EXTERNAL\r\n')),
    );
    await expect(BusConnection.open(refusing, 2_000)).rejects.toThrow(/refused svc \(REJECTED\)/);
    const closing = await rawBus((socket) => socket.end());
    await expect(BusConnection.open(closing, 2_000)).rejects.toThrow(BusUnanswered);
  });
});
