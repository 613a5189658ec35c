// The mock's merchant directory: terminals and clean merchant names from the fixture file, and
// the lookups `POST /v1/merchants/resolve` answers with. Terminals are found exactly (spaces and
// dashes aside); names by their normalised form, then by a fuzzy comparison for typos and
// reordered words.
import merchantsJson from '../fixtures/merchants.json' with { type: 'json' };
import { merchantNameForms, similarity, sortedWords, trigrams } from './normalise.js';

export interface MerchantEntry {
  merchant: string;
  /** ISO 18245 merchant category code. */
  mcc: string;
  category: string;
  city: string;
  terminals: string[];
}

export interface MerchantDirectoryFile {
  source: string;
  merchants: MerchantEntry[];
}

export type LookupType = 'terminal' | 'name';

export interface LookupResult {
  input: string;
  type: LookupType;
  matched: boolean;
  merchant?: string;
  mcc?: string;
  category?: string;
  city?: string;
  terminal?: string;
}

/** How alike two normalised names must be for a fuzzy match (1 is equal). */
export const FUZZY_THRESHOLD = 0.85;
/** Fuzzy comparison is done with the few entries that share the most three-letter pieces. */
const FUZZY_CANDIDATES = 12;
/** Share of the looked-up name's three-letter pieces a candidate must have too. */
const MIN_SHARED_TRIGRAMS = 0.4;

const SPACES_AND_DASHES = /[\s-]/g;

/**
 * True when every character is 0-9: a loop over the character codes, cheaper than a regular
 * expression for one short string.
 */
function digitsOnly(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** The number the last six characters of a text write, or -1 when they are not six digits. */
function lastSixDigits(text: string): number {
  if (text.length < 6) return -1;
  let value = 0;
  for (let i = text.length - 6; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** A set of the numbers below a size, a bit each. */
class BitSet {
  private readonly bits: Uint8Array;

  constructor(size: number) {
    this.bits = new Uint8Array(Math.ceil(size / 8));
  }

  add(value: number): void {
    this.bits[value >> 3]! |= 1 << (value & 7);
  }

  has(value: number): boolean {
    return (this.bits[value >> 3]! & (1 << (value & 7))) !== 0;
  }
}

interface TerminalRecord {
  entry: MerchantEntry;
  terminal: string;
  /** The JSON of a match of this terminal after its input and type, once written (resolveJson). */
  tail?: string;
}

interface IndexedMerchant {
  entry: MerchantEntry;
  normalised: string;
  sorted: string;
  /** With the noise words: "Liquor Stor" is a typo of "Liquor Store", not of "Liquor". */
  plain: string;
}

export class MerchantDirectory {
  readonly source: string;
  /** Every merchant of the file, in its order. */
  readonly merchants: readonly MerchantEntry[];
  private readonly byTerminal = new Map<string, TerminalRecord>();
  /** The last six digits of every terminal. */
  private readonly terminalEndings = new BitSet(1_000_000);
  private readonly byName = new Map<string, MerchantEntry>();
  private readonly indexed: IndexedMerchant[] = [];
  /** Three-letter piece → indexes into `indexed` of the names that contain it. */
  private readonly byTrigram = new Map<string, number[]>();
  /** Scratch counts of shared pieces per name, zeroed again after each fuzzy lookup. */
  private sharedCounts = new Uint16Array(0);

  constructor(file: MerchantDirectoryFile) {
    this.source = file.source;
    this.merchants = file.merchants;
    for (const entry of file.merchants) {
      for (const terminal of entry.terminals) this.byTerminal.set(terminal, { entry, terminal });
      const { normalised, plain } = merchantNameForms(entry.merchant);
      if (this.byName.has(normalised))
        throw new Error(`two merchants normalise to "${normalised}"`);
      this.byName.set(normalised, entry);
      const index =
        this.indexed.push({ entry, normalised, sorted: sortedWords(normalised), plain }) - 1;
      for (const gram of trigrams(normalised)) {
        const list = this.byTrigram.get(gram);
        if (list) list.push(index);
        else this.byTrigram.set(gram, [index]);
      }
    }
    this.sharedCounts = new Uint16Array(this.indexed.length);
    for (const terminal of this.byTerminal.keys()) {
      if (!digitsOnly(terminal) || terminal.length < 6)
        throw new Error(`terminal "${terminal}" is not six digits or more`);
      this.terminalEndings.add(lastSixDigits(terminal));
    }
  }

  get size(): { merchants: number; terminals: number } {
    return { merchants: this.indexed.length, terminals: this.byTerminal.size };
  }

  resolveTerminal(input: string): LookupResult {
    const found = this.findTerminal(input);
    return found
      ? matched(input, 'terminal', found.entry, found.terminal)
      : { input, type: 'terminal', matched: false };
  }

  resolveName(input: string): LookupResult {
    const entry = this.findName(input);
    return entry
      ? matched(input, 'name', entry, entry.terminals[0]!)
      : { input, type: 'name', matched: false };
  }

  /**
   * The results of the terminals' lookups, then the names', as the JSON text JSON.stringify would
   * write for the resolveTerminal and resolveName results, several times faster: no result object
   * is made, and the merchant fields of a match are written once per terminal of the directory,
   * then reused. `plainInputs` says that no input needs escaping in JSON (as after
   * stringsNeedNoEscape), so each is written between quotes as it is.
   */
  resolveJson(
    terminals: readonly string[],
    names: readonly string[],
    plainInputs: boolean,
  ): { json: string; matched: number } {
    const quote = plainInputs ? (input: string) => `"${input}"` : jsonString;
    let json = '[';
    let matchedCount = 0;
    const add = (input: string, type: LookupType, found: TerminalRecord | undefined) => {
      json += `${json.length > 1 ? ',' : ''}{"input":${quote(input)},"type":"${type}",`;
      if (!found) {
        json += '"matched":false}';
        return;
      }
      matchedCount++;
      json += found.tail ??= matchedTail(matched('', type, found.entry, found.terminal));
    };
    for (const input of terminals) add(input, 'terminal', this.findTerminal(input));
    for (const input of names) {
      const entry = this.findName(input);
      add(input, 'name', entry && this.byTerminal.get(entry.terminals[0]!));
    }
    return { json: json + ']', matched: matchedCount };
  }

  private findTerminal(input: string): TerminalRecord | undefined {
    // Most inputs are unknown numbers, told apart by their last six digits without hashing the
    // whole string. Digits dropped with the spaces and dashes below come before those six.
    const lastSix = lastSixDigits(input);
    if (lastSix >= 0 && !this.terminalEndings.has(lastSix)) return undefined;
    // Most inputs are digits only (the directory's terminals are): looked up as they are, without a
    // copy; only another input can hold spaces or dashes to drop.
    return (
      this.byTerminal.get(input) ??
      (digitsOnly(input) ? undefined : this.byTerminal.get(input.replace(SPACES_AND_DASHES, '')))
    );
  }

  private findName(input: string): MerchantEntry | undefined {
    const { normalised, plain } = merchantNameForms(input);
    return normalised === ''
      ? undefined
      : (this.byName.get(normalised) ?? this.closest(normalised, plain));
  }

  /** The most alike name, when alike enough: typos, a missing letter, words in another order. */
  private closest(normalised: string, plain: string): MerchantEntry | undefined {
    const grams = trigrams(normalised);
    // Names that share too few pieces cannot be alike enough; the rest are ranked by pieces shared.
    const enough = Math.ceil(grams.size * MIN_SHARED_TRIGRAMS);
    const shared = this.sharedCounts;
    const touched: number[] = [];
    for (const gram of grams) {
      for (const index of this.byTrigram.get(gram) ?? []) {
        if (shared[index]!++ === 0) touched.push(index);
      }
    }
    const candidates: [number, number][] = [];
    for (const index of touched) {
      if (shared[index]! >= enough) candidates.push([index, shared[index]!]);
      shared[index] = 0;
    }
    candidates.sort((a, b) => b[1] - a[1] || a[0] - b[0]).splice(FUZZY_CANDIDATES);
    const sorted = sortedWords(normalised);
    let best: { entry: MerchantEntry; score: number } | undefined;
    for (const [index] of candidates) {
      const candidate = this.indexed[index]!;
      const score = Math.max(
        similarity(normalised, candidate.normalised),
        similarity(sorted, candidate.sorted),
        similarity(plain, candidate.plain),
      );
      if (score >= FUZZY_THRESHOLD && (!best || score > best.score))
        best = { entry: candidate.entry, score };
    }
    return best?.entry;
  }
}

/**
 * A string JSON.stringify writes as it is, between quotes: no quote, backslash, control character
 * or surrogate.
 */
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

function jsonString(text: string): string {
  return PLAIN_STRING.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** The JSON of a matched result after its input and type: `"matched":true,"merchant":…}`. */
function matchedTail({ matched, merchant, mcc, category, city, terminal }: LookupResult): string {
  return JSON.stringify({ matched, merchant, mcc, category, city, terminal }).slice(1);
}

function matched(
  input: string,
  type: LookupType,
  entry: MerchantEntry,
  terminal: string,
): LookupResult {
  return {
    input,
    type,
    matched: true,
    merchant: entry.merchant,
    mcc: entry.mcc,
    category: entry.category,
    city: entry.city,
    terminal,
  };
}

let shared: MerchantDirectory | undefined;

/** The directory of the fixture file, built on first use (the mock serves it read-only). */
export function merchantDirectory(): MerchantDirectory {
  shared ??= new MerchantDirectory(merchantsJson);
  return shared;
}
