// The gaps a secret is read past (src/core/secrets/gaps.ts): its table of ranges holds exactly the
// Unicode classes it stands for, as the Node running the test has them.
import { describe, expect, it } from 'vitest';

import { isGap } from '../../src/core/secrets/gaps.js';

describe('isGap', () => {
  it('holds white space, controls, format and default-ignorable characters, and nothing else', () => {
    const classes = /[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
    const differing: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      // Lone surrogates are no characters: a text holds them only in pairs.
      if (code >= 0xd800 && code <= 0xdfff) continue;
      if (isGap(code) !== classes.test(String.fromCodePoint(code)))
        differing.push(`U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
    }
    expect(differing).toEqual([]);
  });

  it('reads the characters of keys and of ordinary text as no gap', () => {
    for (const text of ['svc_sk_test_0aF9+/=-', 'श्रीराम—“quoted”…', '日本語'])
      for (const c of text) expect(isGap(c.codePointAt(0)!)).toBe(false);
    for (const gap of ['\u200b', '\u00ad', '\ufeff', '\u2060', '\u{e0001}', ' ', '\t'])
      expect(isGap(gap.codePointAt(0)!)).toBe(true);
  });
});
