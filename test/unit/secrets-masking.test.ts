// Masking of the secrets in use (docs/reference/configuration.md, "Keys": a full key never appears
// in any output), in text and at the choke point every write of svc passes through.
import { PassThrough } from 'node:stream';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { type IO, maskedIO } from '../../src/core/io.js';
import { MaskedStream } from '../../src/core/secrets/masked-stream.js';
import { formsOf } from '../../src/core/secrets/secret-forms.js';
import { endsClearOfForms, Secrets } from '../../src/core/secrets/secrets.js';
import { KEY_FORMS } from '../../src/service/keys.js';

const KEY = 'svc_sk_test_0123456789abcdef0123456789abcdef';
const MASKED = 'svc_sk_test_…cdef';

function secrets(...values: string[]): Secrets {
  const set = new Secrets(KEY_FORMS);
  for (const value of values) set.add(value);
  return set;
}

/** Every character as a JSON \u escape: the most a service can hide a key in valid JSON. */
const jsonEscaped = (text: string, upper = false) =>
  [...text]
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .map((e) => (upper ? e.toUpperCase().replace('\\U', '\\u') : e))
    .join('');

describe('Secrets.mask', () => {
  const mask = (text: string) => secrets(KEY).mask(text);

  it('masks the key as it is, wherever it stands', () => {
    expect(mask(`error: bad key ${KEY}.`)).toBe(`error: bad key ${MASKED}.`);
    expect(mask(`${KEY}${KEY}`)).toBe(`${MASKED}${MASKED}`);
    expect(mask(`Location: https://evil.example/?k=${KEY}&x=1`)).toBe(
      `Location: https://evil.example/?k=${MASKED}&x=1`,
    );
  });

  it('masks the key JSON-escaped, in part or whole, in either case of hex', () => {
    expect(mask('"svc\\u005fsk_test_0123456789abcdef0123456789abcdef"')).toBe(`"${MASKED}"`);
    expect(mask(`"${jsonEscaped(KEY)}"`)).toBe(`"${MASKED}"`);
    expect(mask(`"${jsonEscaped(KEY, true)}"`)).toBe(`"${MASKED}"`);
  });

  it('masks the key percent-encoded, as in a redirect address', () => {
    expect(mask('https://evil.example/?k=svc%5Fsk%5ftest_0123456789abcdef0123456789abcdef')).toBe(
      `https://evil.example/?k=${MASKED}`,
    );
  });

  it('masks the key split across lines, raw, JSON-escaped or flattened to spaces', () => {
    expect(mask(`svc_sk_test_0123456789\nabcdef0123456789abcdef`)).toBe(MASKED);
    expect(mask(`svc_sk_test_0123456789\r\n  abcdef0123456789abcdef`)).toBe(MASKED);
    expect(mask(`"svc_sk_test_0123456789\\nabcdef0123456789abcdef"`)).toBe(`"${MASKED}"`);
    expect(mask(`key svc_sk_test_0123456789 abcdef0123456789abcdef rejected`)).toBe(
      `key ${MASKED} rejected`,
    );
  });

  it('masks the key among characters beyond ASCII that show (a dash, another script), and broken by one that shows nothing', () => {
    expect(mask(`Ram — ${KEY} — राम बहादुर`)).toBe(`Ram — ${MASKED} — राम बहादुर`);
    // Broken within the first characters of the key and of its secret, where a look for those alone
    // would not see it.
    const live = secrets('svc_sk_live_a1b2c3d4e5f60718293a4b5c6d7e8f90');
    expect(live.mask('— svc\u200b_sk_live_a1b2\u200bc3d4e5f60718293a4b5c6d7e8f90 —')).toBe(
      '— svc_sk_live_…8f90 —',
    );
    expect(live.mask('— svc_\u00a0sk_live_a1\u00a0b2c3d4\u00a0e5f60718293a4b5c6d7e8f90')).toBe(
      '— svc_sk_live_…8f90',
    );
    // A secret of its own beyond ASCII, in a text of others.
    expect(secrets('pässwörd-geheim-1').mask('ä — pässwörd-geheim-1 — ö')).toBe('ä — …im-1 — ö');
    expect(mask('a text with — and é but no key')).toBe('a text with — and é but no key');
  });

  it('leaves alone what only resembles the key', () => {
    const near = [
      'svc_sk_test_0123456789abcdef0123456789abcdeX',
      'svc_sk_test_',
      KEY.slice(0, -1),
      's v c',
      '100% done\\n',
      'C:\\\\new\\\\svc',
    ];
    for (const text of near) expect(mask(text)).toBe(text);
  });

  it('masks every secret it was given, a longer one holding a shorter one whole', () => {
    const token = 'ctok_9f8e7d6c5b4a39281706';
    const set = secrets(KEY, token, `${KEY}_extra`);
    expect(set.mask(`${token} ${KEY}_extra ${KEY}`)).toBe(`…1706 svc_sk_test_…xtra ${MASKED}`);
  });

  it('ignores values too short to be secrets', () => {
    const set = secrets('abc', '', 'short7!');
    expect(set.size).toBe(0);
    expect(set.mask('abc short7!')).toBe('abc short7!');
  });

  it('never lets the key through, whatever surrounds it and however it is encoded (property)', () => {
    const encodings = [
      (k: string) => k,
      jsonEscaped,
      (k: string) => k.replace(/_/g, '\\u005f'),
      (k: string) => k.replace(/_/g, '%5F'),
    ];
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.constantFrom(...encodings),
        (before, after, encode) => {
          const out = mask(before + encode(KEY) + after);
          expect(decodeEverything(out)).not.toContain(KEY);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('changes nothing in text without the key (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!decodeEverything(text).replace(/\s/g, '').includes(KEY));
        expect(mask(text)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});

/** The text with JSON and percent escapes undone, as a reader of the output would undo them. */
function decodeEverything(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe('Secrets.heldTailStart', () => {
  const held = (text: string) => text.slice(secrets(KEY).heldTailStart(text));

  it('holds back an end that may be the start of the key', () => {
    expect(held('key: svc_sk_te')).toBe('svc_sk_te');
    expect(held('key: svc\\u00')).toBe('svc\\u00');
    expect(held('key: svc_sk_test_0123 ')).toBe('svc_sk_test_0123 ');
    expect(held('"s')).toBe('s');
  });

  it('holds nothing back from ordinary lines', () => {
    for (const text of ['Listening; Ctrl-C stops\n', 'done\n', 'svc_sk_test_0123456789x', ''])
      expect(held(text)).toBe('');
  });
});

/** A writable that keeps what it was given, with the facts of a terminal. */
function terminalDouble(): PassThrough & { isTTY: boolean; columns: number; text: () => string } {
  const stream = new PassThrough() as PassThrough & {
    isTTY: boolean;
    columns: number;
    text: () => string;
  };
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  stream.isTTY = true;
  stream.columns = 132;
  stream.text = () => text;
  return stream;
}

describe('MaskedStream', () => {
  // A spinner shows the cursor again with ESC[?25h. A key whose secret starts like the end of that
  // sequence (`h…`, `5h…`, `25h…`, one in a few thousand random keys) once made the stream hold its
  // last bytes back: the terminal then read stdout's next text as the rest of the sequence.
  for (const secret of [
    'h0112233445566778899aabbccddeeff',
    '5h0112233445566778899aabbccddee',
    '25h0112233445566778899aabbccdd',
  ]) {
    it(`never cuts an escape sequence when it holds a write's end back (a key starting ${secret.slice(0, 3)})`, async () => {
      const target = terminalDouble();
      const masked = new MaskedStream(target, secrets(`svc_sk_test_${secret}`));
      masked.stream.write('x\u001b[?25h');
      await new Promise((resolve) => setImmediate(resolve));
      expect(target.text()).toBe('x');
      masked.flush();
      await new Promise((resolve) => setImmediate(resolve));
      expect(target.text()).toBe('x\u001b[?25h');
    });
  }

  it('on one terminal, what stderr held back goes out before stdout writes: the two keep their order', async () => {
    const screen = terminalDouble();
    const both: IO = {
      stdout: screen,
      stderr: screen,
      stdin: new PassThrough(),
      stdoutIsTTY: true,
      stderrIsTTY: true,
      stdinIsTTY: false,
      env: {},
      columns: 80,
    };
    const { io } = maskedIO(both, secrets('svc_sk_test_h0112233445566778899aabbccddeeff'));
    io.stderr.write('spinner\u001b[?25h');
    io.stdout.write('Vegetables\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(screen.text()).toBe('spinner\u001b[?25hVegetables\n');
  });

  it('masks a key split across two writes at any point (property)', async () => {
    const line = `{"note":"your key is ${KEY}, or svc\\u005fsk_test_0123456789abcdef0123456789abcdef"}\n`;
    for (let cut = 0; cut <= line.length; cut++) {
      for (const cut2 of [cut, Math.min(line.length, cut + 7)]) {
        const target = terminalDouble();
        const masked = new MaskedStream(target, secrets(KEY));
        masked.stream.write(line.slice(0, cut));
        masked.stream.write(line.slice(cut, cut2));
        masked.stream.write(Buffer.from(line.slice(cut2)));
        masked.flush();
        await new Promise((resolve) => setImmediate(resolve));
        expect(target.text()).toBe(`{"note":"your key is ${MASKED}, or ${MASKED}"}\n`);
      }
    }
  });

  it('holds nothing back from a write whose end no reading can continue into a form (property)', () => {
    // Pieces of the key and of its escaped forms, among characters that end a write: the key's
    // own, JSON's closing brace, escape starts and ends, escape sequences, gaps.
    const tokens = [
      ...['svc_sk', '_test_', '0123456789abcdef', '0123456789abcdef'],
      ...['svc\\u005f', 'sk%5F', '\\u0073', '\\\\u0073', '\\u00', '%', '\\', '\\n', '\\/'],
      ...['}', '{"k":"', '"', ',', ' ', '\n', '\u200b', '\u001b[', '0m', '\\u001b[', 'x', 'é'],
    ];
    const forms = formsOf(KEY, KEY_FORMS.secretOf(KEY), 8)!;
    const formCharacters = new Set([forms.itself, ...forms.secret].flat());
    const pieces = fc.array(fc.constantFrom(...tokens), { maxLength: 30 }).map((p) => p.join(''));
    fc.assert(
      fc.property(pieces, pieces, (written, next) => {
        fc.pre(endsClearOfForms(written, formCharacters));
        const set = secrets(KEY);
        expect(set.heldTailStart(written)).toBe(written.length);
        expect(set.mask(written) + set.mask(next)).toBe(set.mask(written + next));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes what it held back when flushed, and calls every callback', async () => {
    const target = terminalDouble();
    const masked = new MaskedStream(target, secrets(KEY));
    const called: string[] = [];
    expect(masked.stream.write('spinner: s', () => called.push('first'))).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(target.text()).toBe('spinner: ');
    masked.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(target.text()).toBe('spinner: s');
    expect(called).toEqual(['first']);
  });

  it('is still the stream for everything but writing: terminal facts, events, backpressure', () => {
    const target = terminalDouble();
    const { stream } = new MaskedStream(target, secrets(KEY));
    expect((stream as unknown as { isTTY: boolean }).isTTY).toBe(true);
    expect((stream as unknown as { columns: number }).columns).toBe(132);
    let drained = false;
    stream.once('drain', () => (drained = true));
    target.emit('drain');
    expect(drained).toBe(true);
  });

  it('keeps masking when a spinner hooks `write` of both the stream and its target, as ora does', async () => {
    const target = terminalDouble();
    const masked = new MaskedStream(target, secrets(KEY));
    const hooked: string[] = [];
    const streams: NodeJS.WritableStream[] = [masked.stream, target];
    for (const stream of streams) {
      // eslint-disable-next-line @typescript-eslint/unbound-method -- as ora does: applied to its stream below
      const original = stream.write;
      stream.write = (chunk: string, ...rest: unknown[]) => {
        hooked.push(chunk);
        return Reflect.apply(original, stream, [chunk, ...rest]) as boolean;
      };
    }
    masked.stream.write(`key ${KEY}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(target.text()).toBe(`key ${MASKED}\n`);
    expect(hooked).toEqual([`key ${KEY}\n`]);
  });

  it('passes writes through untouched while it knows no secret', async () => {
    const target = terminalDouble();
    const masked = new MaskedStream(target, new Secrets(KEY_FORMS));
    masked.stream.write('plain s');
    await new Promise((resolve) => setImmediate(resolve));
    expect(target.text()).toBe('plain s');
  });
});

describe('maskedIO', () => {
  function io(): IO & {
    out: ReturnType<typeof terminalDouble>;
    errs: ReturnType<typeof terminalDouble>;
  } {
    const out = terminalDouble();
    const errs = terminalDouble();
    return {
      out,
      errs,
      stdout: out,
      stderr: errs,
      stdin: new PassThrough(),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      env: {},
      columns: 80,
    };
  }

  it('masks stdout and stderr and says once on stderr that stdout was masked', async () => {
    const raw = io();
    const set = new Secrets(KEY_FORMS);
    const { io: masked, flush } = maskedIO(raw, set);
    masked.stdout.write('before the key is known\n');
    set.add(KEY);
    masked.stdout.write(`{"key":"${KEY}"}\n`);
    masked.stdout.write(`{"again":"${KEY}"}\n`);
    masked.stderr.write(`error: ${KEY}\n`);
    flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(raw.out.text()).toBe(
      `before the key is known\n{"key":"${MASKED}"}\n{"again":"${MASKED}"}\n`,
    );
    expect(raw.errs.text()).toBe(
      `warning: the output held a secret in use (the API key or a token): it is masked\nerror: ${MASKED}\n`,
    );
  });
});

describe('secrets of any length', () => {
  /** A key with a secret of `length` letters and digits, the same each run. */
  function longKey(length: number): string {
    let seed = length;
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const secret = Array.from(
      { length },
      () => alphabet[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % alphabet.length],
    ).join('');
    return `svc_sk_test_${secret}`;
  }

  for (const [name, length] of [
    ['15 KB', 15_000],
    ['64 KB', 65_536],
    ['1 MB', 1_048_576],
  ] as const) {
    it(`masks a key of ${name}: as written, its secret in hex, split across writes`, async () => {
      const key = longKey(length);
      const set = secrets(key);
      const masked = `svc_sk_test_…${key.slice(-4)}`;
      expect(set.mask(`key ${key} rejected`)).toBe(`key ${masked} rejected`);
      const hex = Buffer.from(key.slice('svc_sk_test_'.length)).toString('hex');
      expect(set.mask(`sig=${hex};`)).toBe(`sig=…${key.slice(-4)};`);
      // Almost all of the key, then something else: nothing to mask, the text given back whole.
      const almost = `${key.slice(0, -1)}!`;
      expect(set.mask(almost)).toBe(almost);
      const target = terminalDouble();
      const stream = new MaskedStream(target, set);
      const line = `{"note":"${key}"}\n`;
      const cut = Math.floor(line.length / 2);
      stream.stream.write(line.slice(0, cut));
      stream.stream.write(line.slice(cut));
      stream.flush();
      await new Promise((resolve) => setImmediate(resolve));
      expect(target.text()).toBe(`{"note":"${masked}"}\n`);
    });
  }

  it('masks a long key of one character repeated, after a text that almost matches it many times', () => {
    const key = `svc_sk_test_${'a'.repeat(20_000)}`;
    const text = `${'a'.repeat(19_999)}b ${'a'.repeat(10_000)}b ${key}.`;
    expect(secrets(key).mask(text)).toBe(
      `${'a'.repeat(19_999)}b ${'a'.repeat(10_000)}b svc_sk_test_…aaaa.`,
    );
  });
});
