// Masking of a secret echoed in a form a plain search misses, yet a reader still reads as the key:
// with invisible characters inside, split by terminal escape sequences, in base64 or in hex; and
// the same split across writes (docs/reference/configuration.md, "Keys": a full key never appears
// in any output).
import { PassThrough } from 'node:stream';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { EscapeSequences } from '../../src/core/secrets/escape-sequences.js';
import { MaskedStream } from '../../src/core/secrets/masked-stream.js';
import { Secrets } from '../../src/core/secrets/secrets.js';
import { KEY_FORMS } from '../../src/service/keys.js';

const KEY = 'svc_sk_test_0123456789abcdef0123456789abcdef';
const MASKED = 'svc_sk_test_…cdef';
/** The part of the key that must never show. */
const SECRET = KEY.slice('svc_sk_test_'.length);
/** What the secret alone, its base64 or hex, is masked as. */
const SECRET_MASKED = '…cdef';

const mask = (text: string) => secrets(KEY).mask(text);

function secrets(...values: string[]): Secrets {
  const set = new Secrets(KEY_FORMS);
  for (const value of values) set.add(value);
  return set;
}

/**
 * Characters that show nothing: format characters (Unicode Cf), joiners, bidirectional controls,
 * BOM, variation selectors, fillers, tags.
 */
const INVISIBLE = [
  '\u200b',
  '\u2060',
  '\u00ad',
  '\u200c',
  '\u200d',
  '\ufeff',
  '\u202e',
  '\u2066',
  '\u061c',
  '\u180e',
  '\ufe0f',
  '\u034f',
  '\u3164',
  '\u{e0041}',
  '\u{e0100}',
];
/** CSI, OSC (ended by BEL or ST), other ESC sequences, DCS, APC, PM, SOS, and the C1 forms. */
const ESCAPE_SEQUENCES = [
  '\u001b[0m',
  '\u001b[38;2;255;0;0m',
  '\u001b[?25l',
  '\u001b]0;a title\u0007',
  '\u001b]8;;https://evil.example/\u001b\\',
  '\u001b(B',
  '\u001bM',
  '\u001bP1$r0m\u001b\\',
  '\u001b_apc\u001b\\',
  '\u001b^pm\u001b\\',
  '\u001bXsos\u001b\\',
  '\u009b31m',
  '\u009d0;a title\u009c',
  '\u0090dcs\u009c',
];

/** The key with `separator` put in at `at`. */
const splitAt = (at: number, separator: string, key = KEY) =>
  key.slice(0, at) + separator + key.slice(at);
const base64 = (text: string) => Buffer.from(text).toString('base64');
const urlSafe = (encoded: string) =>
  encoded.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * Whether a reader could still read the key's secret out of the text: what a terminal shows of it
 * (escape sequences, invisible characters and white space left out), or any base64 or hex in it,
 * decoded from any offset.
 */
function shows(text: string): boolean {
  const seen = text
    .replace(
      /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|(?:\u001b[\]P_^X]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|\u001b[ -/]*[0-~]/g,
      '',
    )
    .replace(/[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, '');
  if (seen.includes(SECRET)) return true;
  const piece = (bytes: string) =>
    bytes.includes(SECRET.slice(0, 12)) || bytes.includes(SECRET.slice(-12));
  for (const [run] of seen.matchAll(/[A-Za-z0-9+/_-]{16,}/g)) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/');
    for (const skip of [0, 1, 2, 3])
      if (piece(Buffer.from(standard.slice(skip), 'base64').toString('latin1'))) return true;
    for (const skip of [0, 1])
      if (
        piece(Buffer.from(run.slice(skip).replace(/[^0-9a-fA-F].*$/, ''), 'hex').toString('latin1'))
      )
        return true;
  }
  return false;
}

describe('Secrets.mask looks past what shows nothing', () => {
  it('masks the key with an invisible character inside it, anywhere', () => {
    for (const invisible of INVISIBLE) {
      for (const at of [1, 3, 4, 12, 30, KEY.length - 1]) {
        expect(mask(`key ${splitAt(at, invisible)} refused`), `${escape(invisible)} at ${at}`).toBe(
          `key ${MASKED} refused`,
        );
      }
    }
  });

  it('masks the key with an invisible character between every two of its characters', () => {
    expect(mask([...KEY].join('\u200b'))).toBe(MASKED);
    expect(mask([...KEY].join('\u2060\u00ad'))).toBe(MASKED);
  });

  it('masks the key split by an escape sequence of any kind, C1 forms too', () => {
    for (const sequence of ESCAPE_SEQUENCES) {
      for (const at of [1, 4, 20, KEY.length - 1]) {
        expect(mask(`"${splitAt(at, sequence)}"`), `${escape(sequence)} at ${at}`).toBe(
          `"${MASKED}"`,
        );
      }
    }
  });

  it('masks the key split by colour codes at every character, as a terminal colours each one', () => {
    expect(mask([...KEY].map((c, i) => `\u001b[3${i % 8}m${c}`).join('') + '\u001b[0m')).toBe(
      `\u001b[30m${MASKED}\u001b[0m`,
    );
  });

  it('masks those forms JSON-escaped and percent-encoded, as a reply or an address carries them', () => {
    expect(mask(JSON.stringify(splitAt(20, '\u001b[0m')))).toBe(`"${MASKED}"`);
    expect(mask(`"${splitAt(20, '\\u200b')}"`)).toBe(`"${MASKED}"`);
    expect(mask(`"${splitAt(20, '\\u200B\\u001b[0m')}"`)).toBe(`"${MASKED}"`);
    expect(mask(`https://evil.example/?k=${splitAt(20, '%E2%80%8B')}`)).toBe(
      `https://evil.example/?k=${MASKED}`,
    );
    expect(mask(`https://evil.example/?k=${splitAt(20, '%C2%AD')}`)).toBe(
      `https://evil.example/?k=${MASKED}`,
    );
    expect(mask(`{"inner":"{\\"k\\":\\"${splitAt(20, '\\\\u200b')}\\"}"}`)).toBe(
      `{"inner":"{\\"k\\":\\"${MASKED}\\"}"}`,
    );
  });

  it('still masks the key inside an escape sequence, or right after one', () => {
    expect(mask(`\u001b]8;;https://evil.example/?k=${KEY}\u001b\\link\u001b]8;;\u001b\\`)).toBe(
      `\u001b]8;;https://evil.example/?k=${MASKED}\u001b\\link\u001b]8;;\u001b\\`,
    );
    expect(mask(`\u001b[${KEY}`)).toBe(`\u001b[${MASKED}`);
    expect(mask(`\u001b${KEY}`)).toBe(`\u001b${MASKED}`);
    expect(mask(`\u009b${KEY}`)).toBe(`\u009b${MASKED}`);
  });

  it('never lets the key show, whatever invisible characters and escape sequences split it (property)', () => {
    const separator = fc
      .array(
        fc.constantFrom(...INVISIBLE, ...ESCAPE_SEQUENCES, ' ', '\n', '\\u200b', '\\u001b[0m'),
        { minLength: 1, maxLength: 3 },
      )
      .map((parts) => parts.join(''));
    const cuts = fc.uniqueArray(fc.integer({ min: 1, max: KEY.length - 1 }), { maxLength: 6 });
    fc.assert(
      fc.property(
        fc.string(),
        cuts,
        fc.array(separator, { minLength: 6, maxLength: 6 }),
        fc.string(),
        (before, at, separators, after) => {
          const split = [...at]
            .sort((a, b) => b - a)
            .reduce((key, cut, i) => splitAt(cut, separators[i]!, key), KEY);
          expect(shows(mask(before + split + after))).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("Secrets.mask reads the secret without the key's prefix", () => {
  it("masks the secret alone, or under another prefix, as the service's own pages write keys", () => {
    expect(mask(`sk_test_${SECRET}`)).toBe(`sk_test_${SECRET_MASKED}`);
    expect(mask(`secret=${SECRET};`)).toBe(`secret=${SECRET_MASKED};`);
    expect(mask(`svc-sk-test-${SECRET}`)).toBe(`svc-sk-test-${SECRET_MASKED}`);
    expect(mask(`svc_sk_tst_${SECRET}`)).toBe(`svc_sk_tst_${SECRET_MASKED}`);
  });

  it('masks the whole key as the key, and leaves a secret too short to stand alone to the key', () => {
    expect(mask(`${KEY} ${KEY}`)).toBe(`${MASKED} ${MASKED}`);
    const short = secrets('svc_sk_test_abc1234');
    expect(short.mask('svc_sk_test_abc1234 abc1234')).toBe('svc_sk_test_… abc1234');
  });
});

describe('Secrets.mask reads base64 and hex', () => {
  it('masks the base64 of the key inside a longer base64 text, at each of the 3 offsets, in either alphabet, padded or not', () => {
    for (const before of ['', 'u:', 'us:', 'user:', 'a longer user name:']) {
      for (const after of ['', '!', '!!', '\n']) {
        const encoded = base64(before + KEY + after);
        for (const form of [encoded, encoded.replace(/=+$/, ''), urlSafe(encoded)]) {
          const out = mask(`Authorization: Basic ${form}`);
          expect(out, form).toContain(SECRET_MASKED);
          expect(shows(out), form).toBe(false);
        }
      }
    }
  });

  it('masks the base64 of the key broken into lines, as MIME writes it', () => {
    const lines = base64(`user:${KEY}`).replace(/(.{20})/g, '$1\r\n');
    expect(shows(mask(lines))).toBe(false);
  });

  it('masks the hex of the key, in lower or upper case, alone or inside a longer hex text', () => {
    const hex = (text: string) => Buffer.from(text).toString('hex');
    expect(mask(hex(KEY))).toBe(hex('svc_sk_test_') + SECRET_MASKED);
    expect(mask(`0x${hex(KEY).toUpperCase()}`)).toBe(
      `0x${hex('svc_sk_test_').toUpperCase()}${SECRET_MASKED}`,
    );
    const longer = mask(hex(`key=${KEY};`));
    expect(longer).toContain(SECRET_MASKED);
    expect(shows(longer)).toBe(false);
  });

  it('leaves alone the base64 and hex of what only resembles the key', () => {
    for (const near of [
      KEY.slice(0, -1),
      `${KEY.slice(0, -1)}X`,
      `${KEY.slice(0, 20)}${KEY.slice(21)}`,
    ]) {
      const texts = [base64(near), base64(`user:${near}`), Buffer.from(near).toString('hex')];
      for (const text of texts) expect(mask(text)).toBe(text);
    }
  });
});

describe('Secrets.mask leaves the rest alone', () => {
  it('keeps values under 8 characters unmasked, with or without invisible characters', () => {
    const set = secrets('short7!', 'abc\u200bdef');
    expect(set.size).toBe(0);
    expect(set.mask('short7! abc\u200bdef abcdef')).toBe('short7! abc\u200bdef abcdef');
  });

  it('changes nothing in coloured, escaped or encoded text without the key (property)', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom(
        ...INVISIBLE,
        ...ESCAPE_SEQUENCES,
        '\\u001b[0m',
        '%E2%80%8B',
        '\\\\',
        base64(KEY.slice(0, 20)),
      ),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')),
        (text) => {
          fc.pre(!shows(text));
          expect(mask(text)).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('Secrets.heldTailStart across writes', () => {
  const held = (text: string) => text.slice(secrets(KEY).heldTailStart(text));

  it('holds back an end that may be the start of the key split by what shows nothing', () => {
    expect(held('key: svc_sk_te\u200b')).toBe('svc_sk_te\u200b');
    expect(held('key: svc_sk_te\u001b[0m')).toBe('svc_sk_te\u001b[0m');
    expect(held('key: svc_sk_te\u001b[0')).toBe('svc_sk_te\u001b[0');
    expect(held('key: svc_sk_te\u001b]0;tit')).toBe('svc_sk_te\u001b]0;tit');
    expect(held('key: svc_sk_te%E2%80')).toBe('svc_sk_te%E2%80');
    expect(held(`Basic ${base64(`user:${KEY}`).slice(0, 32)}`)).not.toBe('');
  });

  it('holds nothing back from an ordinary line, coloured or not', () => {
    for (const text of [
      '3 reports\u001b[0m\n',
      'Listening; Ctrl-C stops\n',
      's\u001b[0m\n',
      '\u001b[1mdone\u001b[22m\n',
    ])
      expect(held(text)).toBe('');
  });
});

/** A writable that keeps what it was given. */
function collector(): PassThrough & { text: () => string } {
  const stream = new PassThrough() as PassThrough & { text: () => string };
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  stream.text = () => text;
  return stream;
}

describe('MaskedStream', () => {
  it('masks the key split by an escape sequence, an invisible character, or in base64, cut across writes anywhere', async () => {
    const encoded = base64(`user:${KEY}`);
    const line = `{"a":"${splitAt(9, '\u001b[0m')}","b":"${splitAt(30, '\u200b')}","c":"Basic ${encoded}"}\n`;
    for (let cut = 0; cut <= line.length; cut++) {
      const target = collector();
      const masked = new MaskedStream(target, secrets(KEY));
      masked.stream.write(line.slice(0, cut));
      masked.stream.write(Buffer.from(line.slice(cut)));
      masked.flush();
      await new Promise((resolve) => setImmediate(resolve));
      expect(shows(target.text()), `cut at ${cut}`).toBe(false);
      expect(target.text()).toContain(`{"a":"${MASKED}","b":"${MASKED}","c":"Basic `);
      expect(target.text()).toContain(SECRET_MASKED);
    }
  });
});

describe('EscapeSequences', () => {
  it('tells text from sequences as a terminal does: CSI, OSC to BEL or ST, ESC sequences, C1 forms, an ESC that cuts a string short', () => {
    const text =
      'a\u001b[1;31mb\u001b]0;t\u0007c\u001b]0;t\u001b\\d\u009b2Je\u001b(Bf\u001b]0;t\u001b[0mg\u009d8;;x\u009ch\u001b[1\nk';
    const parser = new EscapeSequences();
    const shown = [...text].filter((c) => !parser.take(c.codePointAt(0)!)).join('');
    expect(shown).toBe('abcdefgh\nk');
  });
});

const escape = (text: string) =>
  [...text].map((c) => `U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`).join(' ');
