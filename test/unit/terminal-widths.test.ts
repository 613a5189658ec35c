// Widths as terminals count them (docs/reference/output.md, "Wrapping and widths"): code point by
// code point, as wcwidth does. Each expectation is what tmux 3.3 drew
// (test/support/drawn-widths.ts; test/e2e/tmux-widths.test.ts asks tmux again).
import { describe, expect, it } from 'vitest';

import { lineWidth } from '../../src/core/output/fit.js';
import { DRAWN } from '../support/drawn-widths.js';

describe('the width of a text on a terminal', () => {
  it.each(DRAWN)('%s takes %i columns, as tmux draws it', (text, columns) => {
    expect(lineWidth(text)).toBe(columns);
  });

  it('Devanagari spacing vowel signs and the visarga take one column; the virama, nukta, anusvara, candrabindu and the signs above and below none', () => {
    for (const sign of ['ा', 'ि', 'ी', 'ो', 'ौ', 'ः']) expect(lineWidth(sign), sign).toBe(1);
    for (const sign of ['्', '़', 'ं', 'ँ', 'ु', 'ू', 'े', 'ै']) expect(lineWidth(sign), sign).toBe(0);
  });

  it('a sequence joined by ZWJ counts each of its parts (tmux draws this one in 2 columns: docs/reference/output.md allows it narrower)', () => {
    expect(lineWidth('👨\u200d👩\u200d👧')).toBe(6);
  });

  it('colour codes and control characters take none', () => {
    expect(lineWidth('\u001b[1mश्री\u001b[0m\u0007')).toBe(3);
  });
});
