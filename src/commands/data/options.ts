// Options the data verbs share, as commander hands them over, and how they become a cache policy.
import type { CachePolicy } from './fetch.js';
import { parseMaxAge } from './input.js';

export interface CacheOptions {
  /** False with --no-cache. */
  cache?: boolean;
  maxAge?: string;
}

export interface ParamOptions {
  /** Every --param name=value, in order. */
  param?: string[];
  /** --bank of a per-bank family. */
  bank?: string;
}

export function cachePolicy(options: CacheOptions): CachePolicy {
  return { read: options.cache !== false, maxAgeMs: parseMaxAge(options.maxAge) };
}
