// How the mock compares merchant-name strings pulled from statements with the clean names of its
// directory: case, accents, punctuation and the legal or trade words a shop adds to its name
// ("Pvt. Ltd.", "Store", "Traders", "Pasal" …) do not count, and small typos are forgiven.

/** Words that say what kind of business or company it is, not which one. */
const NOISE_WORDS = new Set([
  'pvt',
  'private',
  'ltd',
  'limited',
  'plc',
  'inc',
  'llc',
  'co',
  'company',
  'corp',
  'corporation',
  'store',
  'stores',
  'shop',
  'shoppe',
  'traders',
  'trader',
  'trading',
  'suppliers',
  'supplier',
  'enterprise',
  'enterprises',
  'and',
  'the',
  'pasal',
  'bhandar',
  'udhyog',
]);

/**
 * The two forms a merchant name is compared by. `normalised`: lower case, letters and digits only,
 * noise words dropped, single spaces; a name made only of noise words keeps them (it is all there
 * is). `plain`: the same with every word kept, as a typo may hide a noise word.
 */
export function merchantNameForms(name: string): { normalised: string; plain: string } {
  const words = plainWords(name);
  const kept = words.filter((word) => !NOISE_WORDS.has(word));
  return { normalised: (kept.length > 0 ? kept : words).join(' '), plain: words.join(' ') };
}

function plainWords(name: string): string[] {
  const plain = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // "M/S Shrestha Traders": messrs, written before a firm's name on bills.
    .replace(/^\s*m\s*\/\s*s\b\.?/, ' ')
    // "(P) Ltd", "P. Ltd": the short form of Private Limited.
    .replace(/\(\s*p\s*\)|\bp\s*\.?\s*(?=ltd\b)/g, ' ')
    .replace(/&/g, ' and ')
    // "Ram's" is "rams", not "ram s".
    .replace(/['\u2019`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return plain === '' ? [] : plain.split(' ');
}

/** The words of a normalised name in alphabetical order, so word order does not count. */
export function sortedWords(normalised: string): string {
  return normalised.split(' ').sort().join(' ');
}

/** Levenshtein distance, in one row of memory. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diagonal : 1 + Math.min(diagonal, above, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** 1 for equal strings, 0 for nothing in common: one minus the edit distance per character. */
export function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - editDistance(a, b) / longest;
}

/** Overlapping three-letter pieces of a normalised name, padded so short words have some. */
export function trigrams(normalised: string): Set<string> {
  const padded = `  ${normalised} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}
