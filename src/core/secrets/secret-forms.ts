// The forms a secret is written in, each a string of characters to find: the key itself; its
// secret without the prefix (the service's own pages write `sk_live_<secret>`, and a prefix is
// no secret); and the base64 and hex of the secret's UTF-8 bytes. A secret inside a longer base64
// text (`Basic base64(user:key)`) starts at any of the 3 positions of a base64 group: each gives
// it its own characters, those that depend on no byte around it. Base64 is found in either
// alphabet (standard `+/`, URL-safe `-_`), padded or not; hex in lower or upper case.
import { isGap } from './gaps.js';

/** A form: the code points to find. */
export type Form = readonly number[];

export interface SecretForms {
  /** The key itself, read without its gaps, as a text is. */
  itself: Form;
  /** The secret without the key's prefix, and the base64 and hex of the secret. */
  secret: Form[];
}

/**
 * The forms of `key`, whose secret is `secret` (the key without its prefix, or the whole key).
 * None when what is left of the key without its gaps is shorter than `minLength`; a secret that
 * short is read for only within the key, its base64 and hex.
 */
export function formsOf(key: string, secret: string, minLength: number): SecretForms | undefined {
  const itself = withoutGaps(key);
  if (itself.length < minLength) return undefined;
  const secretAlone = withoutGaps(secret);
  const encoded = secretAlone.length >= minLength ? secret : key;
  const bytes = Buffer.from(encoded, 'utf8');
  const base64 = base64Cores(bytes).flatMap((core) => [
    core,
    core.replace(/\+/g, '-').replace(/\//g, '_'),
  ]);
  const hex = bytes.toString('hex');
  const encodings = [...new Set([...base64, hex, hex.toUpperCase()])].map(codesOf);
  return {
    itself,
    secret:
      secret !== key && secretAlone.length >= minLength ? [secretAlone, ...encodings] : encodings,
  };
}

/**
 * For each offset 0, 1, 2 of the secret's first byte in a base64 group, the characters that
 * encode only its bytes: those that share bits with a byte before or after it are left out.
 */
function base64Cores(bytes: Buffer): string[] {
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Character i holds bits 6i to 6i+5; the secret's bits are 8·offset to 8·(offset+length)-1.
    return encoded.slice(
      Math.ceil((4 * offset) / 3),
      Math.floor((4 * (offset + bytes.length)) / 3),
    );
  });
}

function withoutGaps(text: string): number[] {
  return codesOf(text).filter((code) => !isGap(code));
}

function codesOf(text: string): number[] {
  return [...text].map((c) => c.codePointAt(0)!);
}
