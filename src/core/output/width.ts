// Columns a code point takes on a terminal, counted as terminals count them
// (docs/reference/output.md, "Wrapping and widths"): code point by code point, as wcwidth does. A
// Devanagari virama or vowel sign above or below takes none and a vowel sign beside its consonant
// one, so `श्री राम प्रसाद शर्मा` is 18 columns, as tmux draws it (a count by grapheme clusters
// says 15, and the borders of a table around it break).
import { eastAsianWidth } from 'get-east-asian-width';

// Made at the first character past Latin: making it reads its Unicode classes (~0.2 ms), and most
// text never needs it.
let zeroWidth: RegExp | undefined;

/**
 * Columns the code point takes. None: control characters, non-spacing and enclosing marks (\p{Mn},
 * \p{Me}: a virama, a nukta, an anusvara, a vowel sign above or below, a variation selector),
 * format characters (\p{Cf}: joiners, the zero-width space, direction marks; the soft hyphen,
 * which terminals draw, aside) and Hangul vowels and final consonants. Two: East Asian wide and
 * fullwidth characters, emoji shown as emoji among them. One: everything else, spacing marks
 * (\p{Mc}: the vowel signs ा ि ी ो) included. A sequence joined by ZWJ counts each of its parts, as
 * wcwidth does (tmux draws some as one).
 */
export function charWidth(codePoint: number): number {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  // Latin, Greek and the like: no mark, no format character, nothing wide (U+00AD, the soft hyphen,
  // takes one).
  if (codePoint < 0x300) return 1;
  // Hangul vowels and final consonants: they join the consonant before them into one syllable.
  if ((codePoint >= 0x1160 && codePoint <= 0x11ff) || (codePoint >= 0xd7b0 && codePoint <= 0xd7ff))
    return 0;
  zeroWidth ??= /^[\p{Mn}\p{Me}\p{Cf}]$/u;
  if (zeroWidth.test(String.fromCodePoint(codePoint))) return 0;
  return eastAsianWidth(codePoint);
}
