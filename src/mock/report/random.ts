// Seeded randomness for the statements the mock makes up: the same seed (a report id, a
// scenario name, a file's hash) always gives the same transactions.
import { createHash } from 'node:crypto';

export interface Random {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `length` decimal digits, the first not 0. */
  digits(length: number): string;
}

export function seededRandom(seed: string): Random {
  // mulberry32, seeded with the first 32 bits of the seed's SHA-256.
  let state = createHash('sha256').update(seed).digest().readUInt32BE(0);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    digits: (length) =>
      String(int(1, 9)) + Array.from({ length: length - 1 }, () => String(int(0, 9))).join(''),
  };
}
