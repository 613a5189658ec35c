// Options the data verbs share, as commander hands them over, and how they become a cache policy.
import type { CachePolicy } from './fetch.js';
import { DEFAULT_MAX_AGE_MS } from './input.js';

export interface CacheOptions {
  /** False with --no-cache. */
  cache?: boolean;
  /** --max-age in milliseconds, checked by its declaration (MAX_AGE, index.ts). */
  maxAge?: number;
}

export interface ParamOptions {
  /** Every --param name=value, in order. */
  param?: string[];
  /** --bank of a per-bank family. */
  bank?: string;
}

export function cachePolicy(options: CacheOptions): CachePolicy {
  return { read: options.cache !== false, maxAgeMs: options.maxAge ?? DEFAULT_MAX_AGE_MS };
}
