// The characters a secret can be broken by and still be read whole: white space and line breaks,
// control characters, and every character that shows nothing where it stands (Unicode format
// characters such as U+200B, U+2060, U+00AD, joiners, bidirectional controls and the BOM;
// variation selectors and fillers, which Unicode calls default-ignorable).

/**
 * Beyond U+009F, the ranges of code points (first, last) that the Unicode classes
 * `[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]` hold, as Unicode 17 has them.
 * Written out because V8 takes up to a millisecond to build that class at a start (Node 24), for
 * the first text beyond ASCII (an em dash); a unit test compares the table with the classes of the
 * Node it runs on.
 */
const GAP_RANGES: readonly (readonly [number, number])[] = [
  [0xa0, 0xa0],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x600, 0x605],
  [0x61c, 0x61c],
  [0x6dd, 0x6dd],
  [0x70f, 0x70f],
  [0x890, 0x891],
  [0x8e2, 0x8e2],
  [0x115f, 0x1160],
  [0x1680, 0x1680],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x2000, 0x200f],
  [0x2028, 0x202f],
  [0x205f, 0x206f],
  [0x3000, 0x3000],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

/** Whether the character (a code point) is a gap a reader of a secret looks past. */
export function isGap(code: number): boolean {
  // Printable ASCII first: most of any text, and every character of a key.
  if (code > 0x20 && code < 0x7f) return false;
  // Space, and the C0 and C1 controls with DEL between them.
  if (code <= 0x9f) return true;
  for (const [first, last] of GAP_RANGES) {
    if (code < first) return false;
    if (code <= last) return true;
  }
  return false;
}
