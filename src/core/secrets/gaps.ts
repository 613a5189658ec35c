// The characters a secret can be broken by and still be read whole: white space and line breaks,
// control characters, and every character that shows nothing where it stands (Unicode format
// characters such as U+200B, U+2060, U+00AD, joiners, bidirectional controls and the BOM;
// variation selectors and fillers, which Unicode calls default-ignorable).

/**
 * Made at its first use (a text beyond ASCII): making it reads its classes, which would otherwise
 * be done at every start.
 */
let showsNothingOrSpacePattern: RegExp | undefined;
const showsNothingOrSpace = () =>
  (showsNothingOrSpacePattern ??= /[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u);

/**
 * What is known of each character below U+10000 beyond ASCII: 0 not yet asked, else GAP or SHOWN.
 */
let known: Uint8Array | undefined;
const GAP = 1;
const SHOWN = 2;

/** Whether the character (a code point) is a gap a reader of a secret looks past. */
export function isGap(code: number): boolean {
  // Printable ASCII first: most of any text, and every character of a key.
  if (code > 0x20 && code < 0x7f) return false;
  // Space, and the C0 and C1 controls with DEL between them.
  if (code <= 0x9f) return true;
  if (code > 0xffff) return showsNothingOrSpace().test(String.fromCodePoint(code));
  // Asked once each: a text in another script asks about the same few letters again and again.
  known ??= new Uint8Array(0x10000);
  if (known[code] === 0)
    known[code] = showsNothingOrSpace().test(String.fromCharCode(code)) ? GAP : SHOWN;
  return known[code] === GAP;
}
