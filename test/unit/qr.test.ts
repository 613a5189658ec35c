// The QR code of `svc connect --qr`: the text drawn for a terminal is read back into modules, and
// those are decoded by an independent reader (jsQR) from a picture of them, as a phone would.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';

import { type QrModules, qrModules, qrText, renderQr } from '../../src/commands/connect/qr.js';

const jsQR = (createRequire(import.meta.url)('jsqr') as typeof import('jsqr')).default;

const CONNECT_URL = 'https://app.example.com/connect?token=creq_0123456789abcdef01234567';
const ESCAPES = /\u001b\[[0-9;]*m/g;

/** The text of a rendering back into rows of modules (two per line), margin included. */
function readBack(text: string): QrModules {
  const lines = text.replace(ESCAPES, '').split('\n');
  expect(lines.pop()).toBe('');
  const halves: Record<string, [boolean, boolean]> = {
    ' ': [false, false],
    '▀': [true, false],
    '▄': [false, true],
    '█': [true, true],
  };
  return lines.flatMap((line) => {
    const cells = [...line].map(
      (char) => halves[char] ?? expect.unreachable(`unexpected character ${JSON.stringify(char)}`),
    );
    return [cells.map(([top]) => top), cells.map(([, bottom]) => bottom)];
  });
}

/**
 * Decodes modules as a picture: 4 pixels a module, the 4 modules of quiet zone the standard asks
 * for.
 */
function decode(modules: QrModules): string | undefined {
  const scale = 4;
  const quiet = 4;
  const side = (modules.length + 2 * quiet) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  modules.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (!dark) return;
      for (let y = 0; y < scale; y++) {
        for (let x = 0; x < scale; x++) {
          const at = (((r + quiet) * scale + y) * side + (c + quiet) * scale + x) * 4;
          pixels.fill(0, at, at + 3);
        }
      }
    }),
  );
  return jsQR(pixels, side, side, { inversionAttempts: 'dontInvert' })?.data;
}

/** The modules inside a margin of `margin`, which must be light. */
function inside(modules: QrModules, margin: number): QrModules {
  const size = modules[0]!.length - 2 * margin;
  modules.forEach((row, r) => {
    const inCode = r >= margin && r < margin + size;
    row.forEach((dark, c) => {
      if (!inCode || c < margin || c >= margin + size)
        expect(dark, `margin module ${r},${c}`).toBe(false);
    });
  });
  return modules.slice(margin, margin + size).map((row) => row.slice(margin, margin + size));
}

describe('qrModules', () => {
  it('takes the smallest version that holds the text at error correction M', () => {
    // Version v is 17 + 4v modules a side; at level M, byte mode, version 1 holds 14 bytes, version
    // 4 holds 62 and version 5 holds 84.
    expect(qrModules('svc').length).toBe(21);
    expect(qrModules('x'.repeat(14)).length).toBe(21);
    expect(qrModules('x'.repeat(15)).length).toBe(25);
    expect(qrModules('x'.repeat(62)).length).toBe(33);
    expect(qrModules('x'.repeat(63)).length).toBe(37);
    expect(qrModules(CONNECT_URL).length).toBe(37); // 67 bytes
    for (const text of ['svc', CONNECT_URL]) {
      const modules = qrModules(text);
      expect(modules.every((row) => row.length === modules.length)).toBe(true);
      expect(decode(modules)).toBe(text);
    }
  });

  it('is the same code for the same text', () => {
    expect(qrModules(CONNECT_URL)).toEqual(qrModules(CONNECT_URL));
    const digest = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(digest(qrText(CONNECT_URL, { color: true }))).toBe(
      digest(qrText(CONNECT_URL, { color: true })),
    );
  });

  it('encodes text beyond ASCII as UTF-8', () => {
    const text = 'https://app.example.com/connect?name=राम बहादुर';
    expect(decode(qrModules(text))).toBe(text);
  });
});

describe('renderQr', () => {
  it('draws every module, two rows a line, in a light margin of one module', () => {
    for (const text of ['svc', CONNECT_URL]) {
      const modules = qrModules(text);
      for (const color of [false, true]) {
        const drawn = renderQr(modules, { color });
        const lines = drawn.replace(ESCAPES, '').split('\n');
        expect(lines.pop()).toBe('');
        // The size is odd, so the last line's lower half lies below the margin.
        expect(lines).toHaveLength((modules.length + 3) / 2);
        expect(lines.every((line) => [...line].length === modules.length + 2)).toBe(true);
        expect(inside(readBack(drawn).slice(0, modules.length + 2), 1)).toEqual(modules);
        expect(
          readBack(drawn)
            .at(-1)!
            .every((dark) => !dark),
        ).toBe(true);
      }
    }
  });

  it('reads back as the text it was made from, with or without colour', () => {
    for (const color of [false, true])
      expect(decode(readBack(qrText(CONNECT_URL, { color })))).toBe(CONNECT_URL);
  });

  it('with colour, draws each line black on white and resets the colours at its end', () => {
    const lines = qrText(CONNECT_URL, { color: true }).trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^\u001b\[47m\u001b\[30m[ ▀▄█]+\u001b\[0m$/);
  });

  it('without colour, has no escape sequence, only the half blocks and spaces', () => {
    const text = qrText(CONNECT_URL, { color: false });
    expect(text).not.toMatch(/\u001b/);
    expect(
      text
        .trimEnd()
        .split('\n')
        .every((line) => /^[ ▀▄█]+$/.test(line)),
    ).toBe(true);
  });

  it('takes a wider margin when asked', () => {
    const modules = qrModules('svc');
    const drawn = renderQr(modules, { color: false, margin: 4 });
    expect(inside(readBack(drawn).slice(0, modules.length + 8), 4)).toEqual(modules);
  });
});
