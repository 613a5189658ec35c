// Text and the columns tmux 3.3 takes to draw it: the text printed in a pane, the cursor's column
// read back (test/e2e/tmux-widths.test.ts does it again). A count by grapheme clusters
// (string-width) says 15 for the first: a virama and a vowel sign above or below take no column,
// the vowel signs beside their consonant (ा ि ी) one each.
export const DRAWN: readonly (readonly [text: string, columns: number])[] = [
  ['श्री राम प्रसाद शर्मा', 18],
  ['FONEPAY QR/श्री गणेश किराना पसल/KTM', 33],
  ['नेपाल बैंक लिमिटेड', 14],
  ['हरि प्रसाद अधिकारी', 17],
  ['भाटभटेनी सुपरमार्केट, कोटेश्वर', 24],
  ['😀', 2],
  ['🇳🇵', 2],
  ['中文', 4],
  ['é', 1],
  ['e\u0301', 1],
  ['✅', 2],
  ['⚡', 2],
  ['❤️', 1],
  ['\u200d', 0],
  ['\u200b', 0],
  ['\u00ad', 1],
];
