// Field names as people read them: `foir.with_loan` is "FOIR with loan", `by_type.individual`
// "By type individual". One function for every view, so that a field the service adds later reads
// as words too (docs/reference/output.md, "Reading replies": whatever else arrives is shown).

/** Words written in capitals: abbreviations of banking in Nepal and of the web. */
const ACRONYMS: Readonly<Record<string, string>> = {
  foir: 'FOIR',
  emi: 'EMI',
  emis: 'EMIs',
  npr: 'NPR',
  swift: 'SWIFT',
  bic: 'BIC',
  id: 'ID',
  ids: 'IDs',
  url: 'URL',
  qr: 'QR',
  mcc: 'MCC',
  bs: 'BS',
  ad: 'AD',
  api: 'API',
  pan: 'PAN',
  kyc: 'KYC',
};

/** Abbreviations written out. */
const WORDS: Readonly<Record<string, string>> = { avg: 'average', num: 'number', qty: 'quantity' };

/** Words a label leaves out: the value says them (`emi_load_pct` 24.5 reads `EMI load  24.5%`). */
const UNSAID = new Set(['pct']);

/** The words of one segment of a key: `total_inflow` → [total, inflow]; `camelCase` too. */
function wordsOf(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter((word) => word !== '' && !UNSAID.has(word.toLowerCase()))
    .map((word) => {
      const lower = word.toLowerCase();
      // Own entries only: a field named `constructor` is a word like any other.
      return (
        (Object.hasOwn(ACRONYMS, lower) ? ACRONYMS[lower] : undefined) ??
        (Object.hasOwn(WORDS, lower) ? WORDS[lower] : undefined) ??
        lower
      );
    });
}

/**
 * A (dotted) field key in words, the first one capitalised: `foir.with_loan` → `FOIR with loan`,
 * `name_match.match_score` → `Name match score` (a word that ends one segment and starts the next
 * is said once). A key with no words in it stays as it is.
 */
export function labelOf(key: string): string {
  const words: string[] = [];
  for (const segment of key.split('.')) {
    const next = wordsOf(segment);
    // `score.score` → `Score`; `name_match.match_score` → `Name match score`.
    while (next.length > 1 && words.length > 0 && words.at(-1) === next[0]) next.shift();
    if (next.length === 1 && words.length > 0 && words.at(-1) === next[0]) continue;
    words.push(...next);
  }
  if (words.length === 0) return key;
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A column's header: the key in words, in capitals (`average_amount` → `AVERAGE AMOUNT`). */
export function headerOf(key: string): string {
  return labelOf(key).toUpperCase();
}
