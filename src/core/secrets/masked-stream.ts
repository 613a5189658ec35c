// The choke point of everything svc writes to stdout and stderr: each write passes through
// `Secrets.mask`. The stream stays itself for everything else (isTTY, columns, events, cursor
// moves, which write through it too), so spinners, prompts and backpressure work as on the bare
// stream.
import { EscapeSequences } from './escape-sequences.js';
import type { Secrets } from './secrets.js';

type WriteCallback = (error?: Error | null) => void;
type Write = NodeJS.WritableStream['write'];

/** Each masked stream handed out, and how to write past its masking. */
const UNMASKED_WRITES = new WeakMap<NodeJS.WritableStream, (text: string) => void>();

/**
 * Writes `text` to `stream` as it is, past the masking of secrets, after what the stream (and its
 * partner) held back: only for output whose purpose is a secret the user asked for (`svc webhooks
 * listen --print-secret`). A stream that is not a masked one is written to as usual.
 */
export function writeUnmasked(stream: NodeJS.WritableStream, text: string): void {
  const write = UNMASKED_WRITES.get(stream);
  if (write) write(text);
  else stream.write(text);
}

export class MaskedStream {
  /** The stream to hand out: the target with its `write` masked. */
  readonly stream: NodeJS.WritableStream;
  /**
   * The end of the last write, when it may be the start of a secret that the next write completes.
   */
  private held = '';
  private readonly decoder = new TextDecoder();
  /** The target's own write, taken before anyone (a spinner) hooks the target's `write`. */
  private readonly targetWrite: Write;
  /** The other stream on the same screen: what it holds back goes out before this one writes. */
  private partner?: MaskedStream;

  constructor(
    private readonly target: NodeJS.WritableStream,
    private readonly secrets: Secrets,
    /** Called each time a write had something masked. */
    private readonly onMasked: () => void = () => {},
  ) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- always called on its target (call, Reflect.apply)
    this.targetWrite = target.write;
    // A spinner (ora) replaces `write` to keep itself tidy and calls the one it replaced: it wraps
    // the masking, rather than the target's write, which would call the masking back.
    let write: Write = this.write.bind(this);
    this.stream = new Proxy(target, {
      get: (stream, name, receiver) =>
        name === 'write' ? write : (Reflect.get(stream, name, receiver) as unknown),
      set: (stream, name, value, receiver) => {
        if (name !== 'write') return Reflect.set(stream, name, value, receiver);
        write = value as Write;
        return true;
      },
    });
    UNMASKED_WRITES.set(this.stream, (text) => {
      this.partner?.flush();
      this.flush();
      this.targetWrite.call(this.target, text);
    });
  }

  /**
   * Pairs two streams that may share a terminal (stdout and stderr): before one writes, the other
   * writes what it held back, so their text reaches the screen in the order it was written.
   */
  static pair(a: MaskedStream, b: MaskedStream): void {
    a.partner = b;
    b.partner = a;
  }

  /** Writes what was held back: at the end of a run, or before the partner stream writes. */
  flush(): void {
    if (this.held === '') return;
    const rest = this.held;
    this.held = '';
    this.targetWrite.call(this.target, rest);
  }

  private write(
    chunk: string | Uint8Array,
    encodingOrCallback?: BufferEncoding | WriteCallback,
    callback?: WriteCallback,
  ): boolean {
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    this.partner?.flush();
    if (this.secrets.size === 0 && this.held === '')
      return Reflect.apply(this.targetWrite, this.target, [
        chunk,
        encodingOrCallback,
        callback,
      ]) as boolean;
    const text =
      this.held +
      (typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
    const masked = this.secrets.mask(text);
    if (masked !== text) this.onMasked();
    const keep = outsideSequence(masked, this.secrets.heldTailStart(masked));
    this.held = masked.slice(keep);
    if (keep === 0) {
      if (done) process.nextTick(done);
      return true;
    }
    return Reflect.apply(this.targetWrite, this.target, [masked.slice(0, keep), done]) as boolean;
  }
}

/** How far back an escape sequence that a write's end holds is looked for: a CSI or a short OSC. */
const SEQUENCE_LOOKBACK = 1024;

/**
 * `at`, or the start of the escape sequence it falls inside: a sequence is written whole or held
 * whole, never cut (the terminal would read the text that comes between as the rest of it).
 */
function outsideSequence(text: string, at: number): number {
  if (at >= text.length) return at;
  for (let start = at; start >= Math.max(0, at - SEQUENCE_LOOKBACK); start--) {
    const c = text.charCodeAt(start);
    if (c !== 0x1b && (c < 0x90 || c > 0x9f)) continue;
    // Read from this sequence's start: is `at` still inside it?
    const reader = new EscapeSequences();
    for (let i = start; i < at; i++) reader.take(text.charCodeAt(i));
    return reader.inText ? at : start;
  }
  return at;
}
