// Compares a claimed name with the account holder name on a statement, the way a lender's
// reviewer would: ignoring case, punctuation, word order and honorifics, accepting initials,
// abbreviations, joined words and the usual romanisations of Nepali names.
//
// Scoring: every claimed word is paired with at most one statement word (the best pairing), each
// pair scores 0..1 by how it agrees (exact, variant, initial, ...). The score is the weighted share
// of agreement: the surname and first given name weigh 1, other given names 0.5 (middle names are
// often dropped or shortened), and each statement word left unpaired adds 0.25 of disagreement.

export type MatchBand = 'match' | 'partial_match' | 'no_match';

export interface NameMatchResult {
  match_score: number;
  result: MatchBand | 'no_data';
  statement_name: string | null;
  reasons: string[];
}

/** Lowest score of each band; below `partial_match` is `no_match`. */
export const MATCH_THRESHOLDS = { match: 85, partial_match: 50 } as const;

export function bandFor(score: number): MatchBand {
  if (score >= MATCH_THRESHOLDS.match) return 'match';
  if (score >= MATCH_THRESHOLDS.partial_match) return 'partial_match';
  return 'no_match';
}

const HONORIFICS = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'shri',
  'shree',
  'smt',
  'shrimati',
  'sushri',
  'dr',
]);

/** Abbreviations written on Nepali statements, read as the full word. */
const ABBREVIATIONS: Record<string, string> = {
  bdr: 'bahadur',
  pd: 'prasad',
  kr: 'kumar',
  md: 'mohammad',
  mohd: 'mohammad',
};

/**
 * Known romanisations of the same name, canonical spelling first. The phonetic fold below
 * catches most variants by rule; this table holds the ones no simple rule explains (dropped
 * syllables, final -y) and documents the common pairs.
 */
export const NAME_VARIANTS: Record<string, readonly string[]> = {
  shrestha: ['srestha', 'shresta', 'sresta'],
  laxmi: ['lakshmi', 'laxmee', 'lakshmee', 'luxmi'],
  bahadur: ['badur', 'bahdur', 'bhadur', 'bahadhur'],
  kumari: ['kumary', 'kumaree'],
  prasad: ['prashad', 'parsad', 'prasaad'],
  mohammad: ['mohammed', 'muhammad', 'mohamad', 'mohamed', 'muhammed'],
  devi: ['debi', 'devee'],
  poudel: ['paudel', 'podel', 'powdel'],
  chaudhary: ['chaudhari', 'choudhary', 'chaudhry', 'chaudhari'],
  adhikari: ['adhikary'],
  krishna: ['krisna', 'krishn'],
};

const CANONICAL = new Map<string, string>(
  Object.entries(NAME_VARIANTS).flatMap(([canonical, variants]) => [
    [canonical, canonical] as const,
    ...variants.map((v) => [v, canonical] as const),
  ]),
);

/** Rewrite rules applied in order; they fold spellings that sound alike in Nepali to one form. */
const PHONETIC_RULES: readonly [RegExp, string][] = [
  [/ksh/g, 'x'], // Lakshman ~ Laxman
  [/ks/g, 'x'],
  [/chh/g, 'ch'], // Chhetri ~ Chetri
  [/sh/g, 's'], // Sharma ~ Sarma
  [/ph/g, 'f'], // Phuyal ~ Fuyal
  [/th/g, 't'], // Thapa ~ Tapa
  [/dh/g, 'd'],
  [/bh/g, 'b'],
  [/kh/g, 'k'],
  [/gh/g, 'g'],
  [/jh/g, 'j'],
  [/v/g, 'b'], // Vikram ~ Bikram
  [/ee|ii/g, 'i'], // Deepak ~ Dipak
  [/oo|uu/g, 'u'], // Roopa ~ Rupa
  [/aa/g, 'a'], // Saarita ~ Sarita
  [/ou/g, 'au'], // Goutam ~ Gautam
  [/y$/, 'i'], // Kumary ~ Kumari
  [/(.)\1+/g, '$1'], // Bhattarai ~ Bhatarai
];

export function phoneticFold(word: string): string {
  return PHONETIC_RULES.reduce(
    (w, [pattern, replacement]) => w.replace(pattern, replacement),
    word.toLowerCase(),
  );
}

interface Token {
  /** As written, without punctuation (for reasons). */
  text: string;
  lower: string;
  canonical: string;
  folded: string;
  initial: boolean;
  abbreviation: boolean;
}

function makeToken(text: string): Token {
  const lower = text.toLowerCase();
  const expanded = ABBREVIATIONS[lower];
  const canonical = expanded ?? CANONICAL.get(lower) ?? lower;
  return {
    text,
    lower,
    canonical,
    folded: phoneticFold(canonical),
    initial: lower.length === 1,
    abbreviation: expanded !== undefined,
  };
}

type PairKind = 'exact' | 'variant' | 'abbreviation' | 'initial' | 'close' | 'none';

/** How much two words agree, 0..1. */
const PAIR_SCORES: Record<PairKind, number> = {
  exact: 1,
  variant: 0.97,
  abbreviation: 0.95,
  close: 0.8,
  initial: 0.6,
  none: 0,
};

function compareTokens(a: Token, b: Token): PairKind {
  if (a.lower === b.lower) return 'exact';
  if (a.initial || b.initial) {
    if (a.initial && b.initial) return 'none';
    const [letter, word] = a.initial ? [a, b] : [b, a];
    const agrees =
      word.lower.startsWith(letter.lower) || word.folded.startsWith(phoneticFold(letter.lower));
    return agrees ? 'initial' : 'none';
  }
  if (a.canonical === b.canonical || a.folded === b.folded) {
    return a.abbreviation || b.abbreviation ? 'abbreviation' : 'variant';
  }
  return similarity(a.folded, b.folded) >= 0.85 ? 'close' : 'none';
}

/** 1 - edit distance / longer length. */
function similarity(a: string, b: string): number {
  if (Math.min(a.length, b.length) < 4) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return 1 - previous[b.length]! / Math.max(a.length, b.length);
}

// Long inputs are cut: real names have a handful of words, and the pairing search is exponential.
const MAX_WORDS = 8;
const MAX_NAME_LENGTH = 200;

/** Words of a name: letters only, Latin accents removed, honorifics dropped (and reported). */
function tokenize(name: string, reasons: string[]): Token[] {
  const words =
    name
      .slice(0, MAX_NAME_LENGTH)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '') // Latin diacritics only; Devanagari signs are kept
      .replace(/['\u2019`]/g, '') // O'Neil ~ ONeil
      .match(/[\p{L}\p{M}]+/gu) ?? [];
  const kept = words.filter((w) => !HONORIFICS.has(w.toLowerCase()));
  // A name made only of honorifics is left as it is rather than emptied.
  if (kept.length === 0) return words.slice(0, MAX_WORDS).map(makeToken);
  for (const w of words)
    if (HONORIFICS.has(w.toLowerCase())) pushOnce(reasons, `Honorific '${w}' ignored`);
  return kept.slice(0, MAX_WORDS).map(makeToken);
}

/**
 * Splits a word of `tokens` that is two adjacent words of `other` written together
 * (Rambahadur ~ Ram Bahadur), when the word does not already agree with some word of `other`.
 */
function splitJoinedWords(tokens: Token[], other: Token[], reasons: string[]): Token[] {
  return tokens.flatMap((token) => {
    if (token.initial || token.lower.length < 4) return [token];
    if (other.some((o) => PAIR_SCORES[compareTokens(token, o)] >= PAIR_SCORES.abbreviation))
      return [token];
    for (let i = 0; i + 1 < other.length; i++) {
      for (let cut = 2; cut <= token.text.length - 2; cut++) {
        const left = makeToken(token.text.slice(0, cut));
        const right = makeToken(matchCase(token.text, token.text.slice(cut)));
        const agrees = (t: Token, o: Token) =>
          PAIR_SCORES[compareTokens(t, o)] >= PAIR_SCORES.abbreviation;
        if (agrees(left, other[i]!) && agrees(right, other[i + 1]!)) {
          pushOnce(
            reasons,
            `Joined words: '${token.text}' ~ '${other[i]!.text} ${other[i + 1]!.text}'`,
          );
          return [left, right];
        }
      }
    }
    return [token];
  });
}

interface Pairing {
  /** For each claimed word, the index of its statement word, or -1. */
  partner: number[];
  total: number;
  inversions: number;
}

/**
 * The pairing with the highest total agreement; ties go to the one closest to the written order.
 */
function bestPairing(kinds: PairKind[][], statementCount: number): Pairing {
  let best: Pairing = { partner: kinds.map(() => -1), total: 0, inversions: 0 };
  const partner: number[] = [];
  const used = new Array<boolean>(statementCount).fill(false);
  const visit = (i: number, total: number) => {
    if (i === kinds.length) {
      const inversions = countInversions(partner);
      if (
        total > best.total + 1e-9 ||
        (Math.abs(total - best.total) <= 1e-9 && inversions < best.inversions)
      ) {
        best = { partner: [...partner], total, inversions };
      }
      return;
    }
    for (let j = 0; j < statementCount; j++) {
      const score = PAIR_SCORES[kinds[i]![j]!];
      if (used[j] || score === 0) continue;
      used[j] = true;
      partner.push(j);
      visit(i + 1, total + score);
      partner.pop();
      used[j] = false;
    }
    partner.push(-1);
    visit(i + 1, total);
    partner.pop();
  };
  visit(0, 0);
  return best;
}

function countInversions(partner: number[]): number {
  const paired = partner.filter((j) => j >= 0);
  let inversions = 0;
  for (let a = 0; a < paired.length; a++)
    for (let b = a + 1; b < paired.length; b++) if (paired[a]! > paired[b]!) inversions++;
  return inversions;
}

const UNPAIRED_STATEMENT_WEIGHT = 0.25;
const WORD_ORDER_PENALTY = 5;

export function matchNames(claimed: string, statementName: string | null): NameMatchResult {
  const shownName = statementName?.trim() || null;
  const reasons: string[] = [];
  let statementTokens = shownName ? tokenize(shownName, reasons) : [];
  if (statementTokens.length === 0) {
    return {
      match_score: 0,
      result: 'no_data',
      statement_name: shownName,
      reasons: ['No account holder name was found on the statement'],
    };
  }
  let claimedTokens = tokenize(claimed, reasons);
  if (claimedTokens.length === 0) {
    return {
      match_score: 0,
      result: 'no_match',
      statement_name: shownName,
      reasons: ['Claimed name contains no letters'],
    };
  }
  claimedTokens = splitJoinedWords(claimedTokens, statementTokens, reasons);
  statementTokens = splitJoinedWords(statementTokens, claimedTokens, reasons);

  const kinds = claimedTokens.map((c) => statementTokens.map((s) => compareTokens(c, s)));
  const pairing = bestPairing(kinds, statementTokens.length);
  const reordered = pairing.inversions > 0;

  // The surname is the last claimed word, or the first one when the claim puts it first
  // (Shrestha Ram Bahadur) and it pairs with the statement's last word.
  const last = claimedTokens.length - 1;
  const surnameFirst = reordered && last > 0 && pairing.partner[0] === statementTokens.length - 1;
  const surname = surnameFirst ? 0 : last;
  const firstGiven = surnameFirst ? 1 : 0;
  const weight = (i: number) => (i === surname || i === firstGiven ? 1 : 0.5);

  let agreement = 0;
  let possible = 0;
  const wordReasons: string[] = [];
  // Surname first in the reasons, then the given names as written.
  const order = [surname, ...claimedTokens.map((_, i) => i).filter((i) => i !== surname)];
  for (const i of order) {
    const c = claimedTokens[i]!;
    const j = pairing.partner[i]!;
    const kind = j >= 0 ? kinds[i]![j]! : 'none';
    agreement += weight(i) * PAIR_SCORES[kind];
    possible += weight(i);
    const role = claimedTokens.length === 1 ? 'Name' : i === surname ? 'Surname' : 'Given name';
    if (kind === 'none') {
      wordReasons.push(`${role} '${c.text}' not found on statement`);
      continue;
    }
    const s = statementTokens[j]!;
    if (kind === 'initial') {
      wordReasons.push(
        c.initial
          ? `Initial '${c.text}' matches '${s.text}'`
          : `'${c.text}' matches initial '${s.text}'`,
      );
      continue;
    }
    wordReasons.push(`${role} '${c.text}' matches`);
    if (kind === 'variant') wordReasons.push(`Transliteration variant: '${c.text}' ~ '${s.text}'`);
    if (kind === 'abbreviation') wordReasons.push(`Abbreviation: '${c.text}' ~ '${s.text}'`);
    if (kind === 'close') wordReasons.push(`Close spelling: '${c.text}' ~ '${s.text}'`);
  }
  const paired = new Set(pairing.partner);
  statementTokens.forEach((s, j) => {
    if (paired.has(j)) return;
    possible += UNPAIRED_STATEMENT_WEIGHT;
    wordReasons.push(`'${s.text}' on statement is not in the claimed name`);
  });
  if (reordered) wordReasons.push('Word order differs');

  const raw = Math.round((100 * agreement) / possible) - (reordered ? WORD_ORDER_PENALTY : 0);
  const score = Math.min(100, Math.max(0, raw));
  return {
    match_score: score,
    result: bandFor(score),
    statement_name: shownName,
    reasons: [...reasons, ...wordReasons],
  };
}

/**
 * Capitalises the second half of a split word when the word was capitalised (Rambahadur → Bahadur).
 */
function matchCase(word: string, part: string): string {
  return /^\p{Lu}/u.test(word) ? part.charAt(0).toUpperCase() + part.slice(1) : part;
}

function pushOnce(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}
