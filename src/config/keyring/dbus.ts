// A small D-Bus client over the bus's Unix socket: the EXTERNAL authentication, Hello, method calls
// with a typed body whose replies are matched by serial, errors by their D-Bus names, AddMatch and
// signals. The bus is a peer like any other: every message it sends is capped (MAX_MESSAGE_BYTES,
// and 32 containers deep, MAX_CONTAINERS in all), read in one pass over a signature parsed once,
// every read of it checked against its bounds, and every call bounded by a timer that closes the
// socket, so a bus or a service that never answers is an error, never a hang. It knows nothing of
// the services it talks to (config/keyring/secret-service.ts is one).
import { connect, type Socket } from 'node:net';

import { InterruptedError } from '../../core/errors.js';

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
          return [pair.slice(0, eq), safeDecode(pair.slice(eq + 1))] as const;
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

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// ---------------------------------------------------------------------------------------------
// Values and their wire form

/** A variant: a value with its own signature (one complete type). */
export class Variant {
  constructor(
    readonly signature: string,
    readonly value: Value,
  ) {}
}

/**
 * A D-Bus value as JavaScript holds it: y n q i u and d as numbers, x and t as bigints, b as a
 * boolean, s o g as strings, v a Variant, ay a Buffer, a dictionary (a{..}) a Map, any other
 * array or a struct an array.
 */
export type Value =
  number | bigint | boolean | string | Buffer | Variant | Value[] | Map<Value, Value>;

/** A message the bus sent that cannot be read, or a value that does not fit its signature. */
export class WireError extends Error {}

/** The largest message svc takes from a bus, or sends: far above any reply it asks for. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/**
 * Containers (arrays, dictionary entries, structs, variants) inside each other, at most: 32, as the
 * D-Bus specification has it.
 */
const MAX_DEPTH = 32;
/**
 * Containers (arrays, structs, variants) in one message, at most: the replies svc asks for hold a
 * handful, and a million one-byte structs would cost hundreds of megabytes once read.
 */
const MAX_CONTAINERS = 65_536;

type BasicCode = 'y' | 'b' | 'n' | 'q' | 'i' | 'u' | 'x' | 't' | 'd' | 's' | 'o' | 'g';
const BASIC = 'ybnqiuxtdsog';

/**
 * One complete type of a signature, parsed once: the writer and the reader walk this tree, so an
 * array of a million structs costs one parse of its signature, not one per element.
 */
type WireType =
  | { readonly code: BasicCode | 'v' }
  | { readonly code: 'a'; readonly element: WireType }
  | { readonly code: '{'; readonly key: WireType; readonly value: WireType }
  | { readonly code: '('; readonly fields: readonly WireType[] };

const ALIGNMENT: Record<WireType['code'], number> = {
  y: 1,
  b: 4,
  n: 2,
  q: 2,
  i: 4,
  u: 4,
  x: 8,
  t: 8,
  d: 8,
  s: 4,
  o: 4,
  g: 1,
  v: 1,
  a: 4,
  '(': 8,
  '{': 8,
};
/**
 * An object path: "/", or elements of [A-Za-z0-9_] after slashes (so it can go inside a match
 * rule's quotes).
 */
const OBJECT_PATH = /^\/(?:[A-Za-z0-9_]+(?:\/[A-Za-z0-9_]+)*)?$/;

/**
 * The complete types of a signature ("sa{sv}" → s, a{sv}); `depth`: the containers it lies in (a
 * variant's signature lies in the variant). WireError for a signature svc does not take.
 */
function parseSignature(signature: string, depth = 0): WireType[] {
  if (signature.length > 255) throw new WireError('a signature longer than 255 characters');
  const cursor = { signature, at: 0 };
  const types: WireType[] = [];
  while (cursor.at < signature.length) types.push(completeType(cursor, depth));
  return types;
}

/** The one complete type a variant's signature must be. */
function variantType(signature: string, depth: number): WireType {
  const types = parseSignature(signature, depth);
  if (types.length !== 1) throw new WireError(`a variant of "${signature}", not one complete type`);
  return types[0]!;
}

/** The complete type at the cursor, which moves past it; `depth`: the containers around it. */
function completeType(cursor: { signature: string; at: number }, depth: number): WireType {
  const { signature } = cursor;
  const code = signature[cursor.at++];
  if (code === undefined) throw new WireError(`a signature cut short ("${signature}")`);
  if (BASIC.includes(code) || code === 'v') return { code: code as BasicCode | 'v' };
  if (code !== 'a' && code !== '(')
    throw new WireError(`a type svc does not read ("${code}" in "${signature}")`);
  if (depth >= MAX_DEPTH) throw new WireError(`a signature nested too deep ("${signature}")`);
  if (code === 'a') {
    if (signature[cursor.at] !== '{')
      return { code: 'a', element: completeType(cursor, depth + 1) };
    cursor.at++;
    if (depth + 1 >= MAX_DEPTH) throw new WireError(`a signature nested too deep ("${signature}")`);
    const keyCode = signature[cursor.at];
    if (keyCode === undefined || !BASIC.includes(keyCode))
      throw new WireError(`a dictionary with a key that is not a basic type ("${signature}")`);
    const key = completeType(cursor, depth + 2);
    const value = completeType(cursor, depth + 2);
    if (signature[cursor.at++] !== '}')
      throw new WireError(`a dictionary entry of more than two types ("${signature}")`);
    return { code: 'a', element: { code: '{', key, value } };
  }
  if (signature[cursor.at] === ')') throw new WireError('an empty struct');
  const fields: WireType[] = [];
  while (signature[cursor.at] !== ')') {
    if (cursor.at >= signature.length)
      throw new WireError(`a signature cut short ("${signature}")`);
    fields.push(completeType(cursor, depth + 1));
  }
  cursor.at++;
  return { code: '(', fields };
}

/**
 * Writes values in little-endian order; `offset` is where its first byte lies in the message, for
 * alignment.
 */
export class WireWriter {
  private buffer = Buffer.alloc(256);
  private length = 0;
  constructor(private readonly offset = 0) {}

  private room(bytes: number): void {
    if (this.length + bytes > MAX_MESSAGE_BYTES)
      throw new WireError(`a message over ${MAX_MESSAGE_BYTES} bytes`);
    if (this.length + bytes <= this.buffer.length) return;
    const bigger = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }

  align(to: number): void {
    const padding = (to - ((this.offset + this.length) % to)) % to;
    this.room(padding);
    this.buffer.fill(0, this.length, this.length + padding);
    this.length += padding;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** Writes the values of a signature, one value for each of its complete types. */
  write(signature: string, values: readonly Value[]): this {
    const types = parseSignature(signature);
    if (types.length !== values.length)
      throw new WireError(`${values.length} values for the signature "${signature}"`);
    types.forEach((type, index) => this.value(type, values[index]!, 0));
    return this;
  }

  private fixed(size: number, put: (at: number) => void): void {
    this.align(size);
    this.room(size);
    put(this.length);
    this.length += size;
  }

  private text(value: unknown, lengthBytes: 1 | 4): void {
    if (typeof value !== 'string') throw new WireError(`not a string: ${typeof value}`);
    const text = Buffer.from(value, 'utf8');
    if (text.includes(0)) throw new WireError('a string with a NUL in it');
    if (lengthBytes === 1) {
      if (text.length > 255) throw new WireError('a signature longer than 255 bytes');
      this.fixed(1, (at) => this.buffer.writeUInt8(text.length, at));
    } else {
      this.fixed(4, (at) => this.buffer.writeUInt32LE(text.length, at));
    }
    this.room(text.length + 1);
    text.copy(this.buffer, this.length);
    this.buffer[this.length + text.length] = 0;
    this.length += text.length + 1;
  }

  /** Writes one value of `type`; `depth`: the containers around it. */
  private value(type: WireType, value: Value, depth: number): void {
    const wrong = () => new WireError(`a ${typeof value} where the signature says "${type.code}"`);
    const integer = (low: number, high: number): number => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < low || value > high)
        throw wrong();
      return value;
    };
    const big = (low: bigint, high: bigint): bigint => {
      if (typeof value !== 'bigint' || value < low || value > high) throw wrong();
      return value;
    };
    switch (type.code) {
      case 'y':
        return this.fixed(1, (at) => this.buffer.writeUInt8(integer(0, 0xff), at));
      case 'b':
        if (typeof value !== 'boolean') throw wrong();
        return this.fixed(4, (at) => this.buffer.writeUInt32LE(value ? 1 : 0, at));
      case 'n':
        return this.fixed(2, (at) => this.buffer.writeInt16LE(integer(-0x8000, 0x7fff), at));
      case 'q':
        return this.fixed(2, (at) => this.buffer.writeUInt16LE(integer(0, 0xffff), at));
      case 'i':
        return this.fixed(4, (at) =>
          this.buffer.writeInt32LE(integer(-0x80000000, 0x7fffffff), at),
        );
      case 'u':
        return this.fixed(4, (at) => this.buffer.writeUInt32LE(integer(0, 0xffffffff), at));
      case 'x':
        return this.fixed(8, (at) =>
          this.buffer.writeBigInt64LE(big(-(2n ** 63n), 2n ** 63n - 1n), at),
        );
      case 't':
        return this.fixed(8, (at) => this.buffer.writeBigUInt64LE(big(0n, 2n ** 64n - 1n), at));
      case 'd':
        if (typeof value !== 'number') throw wrong();
        return this.fixed(8, (at) => this.buffer.writeDoubleLE(value, at));
      case 's':
        return this.text(value, 4);
      case 'o':
        if (typeof value !== 'string' || !OBJECT_PATH.test(value))
          throw new WireError('an object path that is not one');
        return this.text(value, 4);
      case 'g':
        return this.text(value, 1);
      case 'v': {
        if (!(value instanceof Variant)) throw wrong();
        if (depth >= MAX_DEPTH) throw new WireError('values nested too deep');
        const inner = variantType(value.signature, depth + 1);
        this.text(value.signature, 1);
        return this.value(inner, value.value, depth + 1);
      }
      case '(': {
        if (!Array.isArray(value) || value.length !== type.fields.length) throw wrong();
        this.align(8);
        type.fields.forEach((field, index) => this.value(field, value[index]!, depth + 1));
        return;
      }
      case 'a': {
        const { element } = type;
        this.align(4);
        const lengthAt = this.length;
        this.fixed(4, () => {});
        this.align(ALIGNMENT[element.code]);
        const start = this.length;
        if (element.code === 'y') {
          if (!Buffer.isBuffer(value)) throw wrong();
          this.room(value.length);
          value.copy(this.buffer, this.length);
          this.length += value.length;
        } else if (element.code === '{') {
          if (!(value instanceof Map)) throw wrong();
          for (const [k, v] of value) {
            this.align(8);
            this.value(element.key, k, depth + 2);
            this.value(element.value, v, depth + 2);
          }
        } else {
          if (!Array.isArray(value)) throw wrong();
          for (const item of value) this.value(element, item, depth + 1);
        }
        this.buffer.writeUInt32LE(this.length - start, lengthAt);
        return;
      }
      case '{':
        throw new WireError('a dictionary entry outside an array');
    }
  }
}

/**
 * Reads values from `data`, in the byte order of its message; every read is checked against the
 * end.
 */
export class WireReader {
  at: number;
  /** The arrays, structs and variants read so far (MAX_CONTAINERS). */
  private containers = 0;
  constructor(
    private readonly data: Buffer,
    private readonly littleEndian: boolean,
    /** Where `data` starts in its message, for alignment. */
    private readonly offset = 0,
    start = 0,
  ) {
    this.at = start;
  }

  /**
   * The values of a signature, one for each of its complete types; WireError when the data does not
   * hold them.
   */
  read(signature: string): Value[] {
    return parseSignature(signature).map((type) => this.value(type, 0));
  }

  private need(bytes: number, limit = this.data.length): void {
    if (bytes < 0 || this.at + bytes > limit)
      throw new WireError('a message cut short, or a length that lies');
  }

  private align(to: number): void {
    const padding = (to - ((this.offset + this.at) % to)) % to;
    this.need(padding);
    this.at += padding;
  }

  private fixed<T>(size: number, get: (at: number) => T): T {
    this.align(size);
    this.need(size);
    const value = get(this.at);
    this.at += size;
    return value;
  }

  private u32(): number {
    return this.fixed(4, (at) =>
      this.littleEndian ? this.data.readUInt32LE(at) : this.data.readUInt32BE(at),
    );
  }

  private text(length: number): string {
    this.need(length + 1);
    if (this.data[this.at + length] !== 0) throw new WireError('a string without its NUL');
    const value = this.data.toString('utf8', this.at, this.at + length);
    this.at += length + 1;
    return value;
  }

  /** One more array, struct or variant, within MAX_CONTAINERS. */
  private container(): void {
    if (++this.containers > MAX_CONTAINERS)
      throw new WireError(`a message of more than ${MAX_CONTAINERS} arrays, structs and variants`);
  }

  /** Reads one value of `type`; `depth`: the containers around it. */
  private value(type: WireType, depth: number): Value {
    const le = this.littleEndian;
    const d = this.data;
    switch (type.code) {
      case 'y':
        return this.fixed(1, (at) => d.readUInt8(at));
      case 'b': {
        const value = this.u32();
        if (value > 1) throw new WireError(`a boolean of ${value}`);
        return value === 1;
      }
      case 'n':
        return this.fixed(2, (at) => (le ? d.readInt16LE(at) : d.readInt16BE(at)));
      case 'q':
        return this.fixed(2, (at) => (le ? d.readUInt16LE(at) : d.readUInt16BE(at)));
      case 'i':
        return this.fixed(4, (at) => (le ? d.readInt32LE(at) : d.readInt32BE(at)));
      case 'u':
        return this.u32();
      case 'x':
        return this.fixed(8, (at) => (le ? d.readBigInt64LE(at) : d.readBigInt64BE(at)));
      case 't':
        return this.fixed(8, (at) => (le ? d.readBigUInt64LE(at) : d.readBigUInt64BE(at)));
      case 'd':
        return this.fixed(8, (at) => (le ? d.readDoubleLE(at) : d.readDoubleBE(at)));
      case 's':
        return this.text(this.u32());
      case 'o': {
        const path = this.text(this.u32());
        if (!OBJECT_PATH.test(path)) throw new WireError('an object path that is not one');
        return path;
      }
      case 'g':
        return this.text(this.fixed(1, (at) => d.readUInt8(at)));
      case 'v': {
        this.container();
        if (depth >= MAX_DEPTH) throw new WireError('values nested too deep');
        const signature = this.text(this.fixed(1, (at) => d.readUInt8(at)));
        return new Variant(signature, this.value(variantType(signature, depth + 1), depth + 1));
      }
      case '(': {
        this.container();
        this.align(8);
        return type.fields.map((field) => this.value(field, depth + 1));
      }
      case 'a': {
        this.container();
        const { element } = type;
        const length = this.u32();
        this.align(ALIGNMENT[element.code]);
        this.need(length);
        const end = this.at + length;
        if (element.code === 'y') {
          const bytes = Buffer.from(d.subarray(this.at, end));
          this.at = end;
          return bytes;
        }
        if (element.code === '{') {
          const map = new Map<Value, Value>();
          while (this.at < end) {
            this.align(8);
            const k = this.value(element.key, depth + 2);
            map.set(k, this.value(element.value, depth + 2));
          }
          if (this.at !== end) throw new WireError('an array longer than its length');
          return map;
        }
        const items: Value[] = [];
        // Every element takes at least one byte, so this ends.
        while (this.at < end) items.push(this.value(element, depth + 1));
        if (this.at !== end) throw new WireError('an array longer than its length');
        return items;
      }
      case '{':
        throw new WireError('a dictionary entry outside an array');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Messages

export const MESSAGE = { call: 1, return: 2, error: 3, signal: 4 } as const;
const FIELD = {
  path: 1,
  interface: 2,
  member: 3,
  errorName: 4,
  replySerial: 5,
  destination: 6,
  sender: 7,
  signature: 8,
} as const;

export interface Message {
  type: number;
  serial: number;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  destination?: string;
  sender?: string;
  signature: string;
  /** The body as it came: read it with `bodyOf`. */
  body: Buffer;
  littleEndian: boolean;
}

export interface Call {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: readonly Value[];
}

/** A message's bytes: little-endian, its header fields and body typed by signature. */
export function encodeMessage(
  type: number,
  serial: number,
  fields: Omit<Partial<Message>, 'body' | 'type' | 'serial'>,
  body: readonly Value[] = [],
  flags = 0,
): Buffer {
  const signature = fields.signature ?? '';
  const bodyBytes = new WireWriter().write(signature, body).bytes();
  const headerFields: Value[] = [];
  const add = (code: number, fieldType: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '')
      headerFields.push([code, new Variant(fieldType, value)]);
  };
  add(FIELD.path, 'o', fields.path);
  add(FIELD.interface, 's', fields.interface);
  add(FIELD.member, 's', fields.member);
  add(FIELD.errorName, 's', fields.errorName);
  add(FIELD.replySerial, 'u', fields.replySerial);
  add(FIELD.destination, 's', fields.destination);
  add(FIELD.sender, 's', fields.sender);
  add(FIELD.signature, 'g', signature);
  const header = new WireWriter().write('yyyyuua(yv)', [
    'l'.charCodeAt(0),
    type,
    flags,
    1,
    bodyBytes.length,
    serial,
    headerFields,
  ]);
  header.align(8);
  const bytes = Buffer.concat([header.bytes(), bodyBytes]);
  if (bytes.length > MAX_MESSAGE_BYTES)
    throw new WireError(`a message over ${MAX_MESSAGE_BYTES} bytes`);
  return bytes;
}

/**
 * The first whole message of `data` and its length in bytes; undefined until all of it has come.
 * WireError for bytes that are not a message svc takes (a wrong byte order mark or version, a
 * message over MAX_MESSAGE_BYTES, header fields that do not read): the connection is then closed.
 */
export function decodeMessage(data: Buffer): { message: Message; length: number } | undefined {
  if (data.length < 16) return undefined;
  const mark = data[0];
  if (mark !== 0x6c && mark !== 0x42)
    throw new WireError(`not a D-Bus message (byte order mark ${mark})`);
  const littleEndian = mark === 0x6c;
  if (data[3] !== 1) throw new WireError(`a D-Bus message of protocol version ${data[3]}`);
  const u32 = (at: number) => (littleEndian ? data.readUInt32LE(at) : data.readUInt32BE(at));
  const bodyLength = u32(4);
  const fieldsLength = u32(12);
  const fieldsEnd = 16 + fieldsLength;
  const length = fieldsEnd + ((8 - (fieldsEnd % 8)) % 8) + bodyLength;
  if (
    bodyLength > MAX_MESSAGE_BYTES ||
    fieldsLength > MAX_MESSAGE_BYTES ||
    length > MAX_MESSAGE_BYTES
  ) {
    throw new WireError(`a message of ${length} bytes, over the ${MAX_MESSAGE_BYTES} svc takes`);
  }
  if (data.length < length) return undefined;
  const header = new WireReader(data.subarray(0, fieldsEnd), littleEndian);
  const [, type, , , , serial, fields] = header.read('yyyyuua(yv)') as [
    number,
    number,
    number,
    number,
    number,
    number,
    Value[][],
  ];
  const message: Message = {
    type,
    serial,
    signature: '',
    body: data.subarray(length - bodyLength, length),
    littleEndian,
  };
  for (const [code, variant] of fields as [number, Variant][]) {
    const value = variant.value;
    const text = (fieldType: string): string => {
      if (variant.signature !== fieldType || typeof value !== 'string')
        throw new WireError(`a header field ${code} of type "${variant.signature}"`);
      return value;
    };
    if (code === FIELD.path) message.path = text('o');
    else if (code === FIELD.interface) message.interface = text('s');
    else if (code === FIELD.member) message.member = text('s');
    else if (code === FIELD.errorName) message.errorName = text('s');
    else if (code === FIELD.destination) message.destination = text('s');
    else if (code === FIELD.sender) message.sender = text('s');
    else if (code === FIELD.signature) message.signature = text('g');
    else if (code === FIELD.replySerial) {
      if (variant.signature !== 'u' || typeof value !== 'number')
        throw new WireError('a reply serial that is not a number');
      message.replySerial = value;
    }
  }
  return { message: Object.freeze(message), length };
}

/**
 * The values of a message's body, as its signature says; WireError when the body does not hold
 * them.
 */
export function bodyOf(message: Message): Value[] {
  const reader = new WireReader(message.body, message.littleEndian);
  const values = reader.read(message.signature);
  if (reader.at !== message.body.length) throw new WireError('a body longer than its signature');
  return values;
}

/**
 * The string a message's body starts with (a name, an error's text), read alone; undefined when
 * there is none.
 */
function firstString(message: Message): string | undefined {
  if (!message.signature.startsWith('s')) return undefined;
  try {
    return new WireReader(message.body, message.littleEndian).read('s')[0] as string;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Connections

/**
 * The bus could not be reached, refused svc, broke off, sent what is not D-Bus, or did not answer
 * in time: one line.
 */
export class BusUnanswered extends Error {}

/**
 * A D-Bus error reply: `dbusName` is its D-Bus name (org.freedesktop.DBus.Error.ServiceUnknown…),
 * `message` its text, if any.
 */
export class BusError extends Error {
  constructor(
    readonly dbusName: string,
    text: string,
  ) {
    super(text);
  }
}

interface Waiter {
  signal: (message: Message) => void;
  failed: (error: Error) => void;
}

interface Pending {
  resolve: (message: Message) => void;
  reject: (error: Error) => void;
}

/** A connection's unique name on the bus: ":1.42". */
const UNIQUE_NAME = /^:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+$/;

/** How long the authentication and Hello may take, unless told. */
const OPEN_TIMEOUT_MS = 2_000;

export class BusConnection {
  private serial = 0;
  private received: Buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, Pending>();
  private readonly waiters = new Set<Waiter>();
  private failure?: Error;
  /** The name the bus gave this connection (Hello). */
  uniqueName = '';

  private constructor(
    private readonly socket: Socket,
    private readonly stop?: AbortSignal,
  ) {
    stop?.addEventListener('abort', this.stopped, { once: true });
  }

  /** The run was asked to stop: whatever waits on the bus ends now. */
  private readonly stopped = () => this.close(new InterruptedError());

  /**
   * A connection to the bus at `address`, authenticated (EXTERNAL, as `uid`) and named (Hello)
   * within `timeoutMs`; rejects with BusUnanswered. Once `signal` aborts, the connection is closed
   * and whatever waits on it (opening it too) rejects with InterruptedError.
   */
  static open(
    address: string,
    timeoutMs = OPEN_TIMEOUT_MS,
    { signal, uid = process.getuid?.() ?? 0 }: { signal?: AbortSignal; uid?: number } = {},
  ): Promise<BusConnection> {
    if (signal?.aborted) return Promise.reject(new InterruptedError());
    const socketPath = busSocketPath(address);
    if (socketPath === undefined)
      return Promise.reject(
        new BusUnanswered(
          `the session bus address is not a Unix socket svc can reach (${address.split(',')[0]})`,
        ),
      );
    return new Promise<BusConnection>((resolve, reject) => {
      const socket = connect(socketPath);
      const bus = new BusConnection(socket, signal);
      let authenticated = false;
      const timer = setTimeout(
        () =>
          bus.close(
            new BusUnanswered(`no answer from the session bus within ${timeoutMs / 1000} s`),
          ),
        timeoutMs,
      );
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      socket.on('error', (error: NodeJS.ErrnoException) =>
        bus.close(
          new BusUnanswered(`the session bus cannot be reached (${error.code ?? error.message})`),
        ),
      );
      socket.on('close', () =>
        bus.close(new BusUnanswered('the session bus closed the connection')),
      );
      bus.onClose = fail;
      socket.on('connect', () => {
        socket.write(
          Buffer.concat([
            Buffer.from([0]),
            Buffer.from(`AUTH EXTERNAL ${Buffer.from(String(uid)).toString('hex')}\r\n`),
          ]),
        );
      });
      socket.on('data', (chunk: Buffer) => {
        if (authenticated) return bus.take(chunk);
        bus.received = Buffer.concat([bus.received, chunk]);
        const end = bus.received.indexOf('\r\n');
        if (end === -1) {
          if (bus.received.length > 512)
            bus.close(new BusUnanswered('the session bus does not speak D-Bus'));
          return;
        }
        const line = bus.received.subarray(0, end).toString('latin1');
        const rest = bus.received.subarray(end + 2);
        bus.received = Buffer.alloc(0);
        if (!line.startsWith('OK '))
          return bus.close(
            new BusUnanswered(
              `the session bus refused svc (${line.split(' ')[0]!.replace(/[^\w]/g, '').slice(0, 40)})`,
            ),
          );
        authenticated = true;
        socket.write('BEGIN\r\n');
        bus
          .call(
            {
              destination: 'org.freedesktop.DBus',
              path: '/org/freedesktop/DBus',
              interface: 'org.freedesktop.DBus',
              member: 'Hello',
            },
            timeoutMs,
          )
          .then((reply) => {
            bus.uniqueName = firstString(reply) ?? '';
            clearTimeout(timer);
            bus.onClose = undefined;
            resolve(bus);
          })
          .catch((error: Error) => bus.close(error));
        if (rest.length > 0) bus.take(rest);
      });
    });
  }

  private onClose?: (error: Error) => void;

  /**
   * Calls a method and resolves with its reply; rejects with BusError for an error reply,
   * BusUnanswered when `timeoutMs` passes first (the connection is then closed).
   */
  call(call: Call, timeoutMs: number): Promise<Message> {
    if (this.failure) return Promise.reject(this.failure);
    const serial = ++this.serial;
    let bytes: Buffer;
    try {
      bytes = encodeMessage(
        MESSAGE.call,
        serial,
        {
          destination: call.destination,
          path: call.path,
          interface: call.interface,
          member: call.member,
          signature: call.signature,
        },
        call.body,
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          this.close(
            new BusUnanswered(
              `no answer from ${call.destination} on the session bus within ${timeoutMs / 1000} s`,
            ),
          ),
        timeoutMs,
      );
      this.pending.set(serial, {
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.socket.write(bytes);
    });
  }

  /**
   * The unique name (":1.42") of the connection that owns `name` now: the only sender whose
   * signals for that name's objects are that name's (another connection may send any signal).
   */
  async nameOwner(name: string, timeoutMs: number): Promise<string> {
    const reply = await this.call(
      {
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'GetNameOwner',
        signature: 's',
        body: [name],
      },
      timeoutMs,
    );
    const owner = firstString(reply);
    // A unique name, so it can go inside a match rule's quotes.
    if (reply.signature !== 's' || owner === undefined || !UNIQUE_NAME.test(owner))
      throw new BusUnanswered(`the session bus named no owner of ${name}`);
    return owner;
  }

  /** Asks the bus for the signals that match `rule` (AddMatch). */
  async addMatch(rule: string, timeoutMs: number): Promise<void> {
    await this.call(
      {
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'AddMatch',
        signature: 's',
        body: [rule],
      },
      timeoutMs,
    );
  }

  /**
   * The first signal for which `accept` says yes, within `timeoutMs` (BusUnanswered then, and the
   * connection closed). Call `addMatch` first, and start waiting before the call that makes it.
   */
  signal(accept: (message: Message) => boolean, timeoutMs: number, what: string): Promise<Message> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(
        () => this.close(new BusUnanswered(`no answer within ${timeoutMs / 1000} s while ${what}`)),
        timeoutMs,
      );
      const waiter: Waiter = {
        signal: (message) => {
          if (!accept(message)) return;
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(message);
        },
        failed: (error) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          reject(error);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Closes the connection; whatever waits on it is rejected with `error`. */
  close(error: Error = new BusUnanswered('the connection to the session bus was closed')): void {
    if (this.failure) return;
    this.failure = error;
    this.stop?.removeEventListener('abort', this.stopped);
    this.socket.destroy();
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    for (const waiter of [...this.waiters]) waiter.failed(error);
    this.onClose?.(error);
  }

  /** Bytes from the bus, after the authentication. */
  private take(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    for (;;) {
      let next: ReturnType<typeof decodeMessage>;
      try {
        next = decodeMessage(this.received);
      } catch (error) {
        return this.close(
          new BusUnanswered(
            `the session bus sent what svc cannot read (${(error as Error).message})`,
          ),
        );
      }
      if (!next) return;
      this.received = this.received.subarray(next.length);
      this.dispatch(next.message);
      if (this.failure) return;
    }
  }

  private dispatch(message: Message): void {
    if (message.type === MESSAGE.return || message.type === MESSAGE.error) {
      const pending =
        message.replySerial === undefined ? undefined : this.pending.get(message.replySerial);
      if (!pending) return;
      this.pending.delete(message.replySerial!);
      if (message.type === MESSAGE.return) return pending.resolve(message);
      return pending.reject(
        new BusError(
          message.errorName ?? 'org.freedesktop.DBus.Error.Failed',
          firstString(message) ?? '',
        ),
      );
    }
    // Nothing here serves calls: the bus routes none to svc's connection that svc did not ask for.
    if (message.type === MESSAGE.signal)
      for (const waiter of [...this.waiters]) waiter.signal(message);
  }
}

/**
 * Resolves once `name` answers a `Ping` on the bus at `address` (any reply from it, an error such
 * as UnknownMethod included: it is there and speaks); rejects with BusUnanswered when the bus
 * cannot be reached, refuses us, has no such name (nor can start it), or the whole exchange takes
 * longer than `timeoutMs`.
 */
export async function pingBusName(
  address: string,
  name: string,
  path: string,
  timeoutMs: number,
  options: { signal?: AbortSignal; uid?: number } = {},
): Promise<void> {
  const started = Date.now();
  const late = () =>
    new BusUnanswered(`no answer from ${name} on the session bus within ${timeoutMs / 1000} s`);
  let bus: BusConnection;
  try {
    bus = await BusConnection.open(address, timeoutMs, options);
  } catch (error) {
    throw /within/.test((error as Error).message) ? late() : error;
  }
  try {
    await bus.call(
      { destination: name, path, interface: 'org.freedesktop.DBus.Peer', member: 'Ping' },
      Math.max(1, timeoutMs - (Date.now() - started)),
    );
  } catch (error) {
    if (error instanceof BusError) {
      if (NO_OWNER.test(error.dbusName))
        throw new BusUnanswered(
          `nothing answers to ${name} on the session bus (${error.dbusName})`,
        );
      return;
    }
    throw /within/.test((error as Error).message) ? late() : error;
  } finally {
    bus.close();
  }
}

/** The errors of a name no one holds (nor can start). */
export const NO_OWNER =
  /^org\.freedesktop\.DBus\.Error\.(ServiceUnknown|NameHasNoOwner|Spawn\.\w+)$/;
