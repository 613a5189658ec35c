// API key forms and masking. A full key never leaves this process in any output.

export type KeyMode = 'live' | 'test' | 'unknown';

const PREFIXES: Record<Exclude<KeyMode, 'unknown'>, string> = {
  live: 'svc_sk_live_',
  test: 'svc_sk_test_',
};

export function keyMode(key: string): KeyMode {
  if (key.startsWith(PREFIXES.live) && key.length > PREFIXES.live.length) return 'live';
  if (key.startsWith(PREFIXES.test) && key.length > PREFIXES.test.length) return 'test';
  return 'unknown';
}

/** `svc_sk_live_…abcd`: the prefix and the last four characters; never more of a short key. */
export function maskKey(key: string): string {
  const mode = keyMode(key);
  const prefix = mode === 'unknown' ? '' : PREFIXES[mode];
  const secret = key.slice(prefix.length);
  const tail = secret.length >= 12 ? secret.slice(-4) : '';
  return `${prefix}…${tail}`;
}

/** Replaces every occurrence of the key in a text by its masked form. */
export function redactKey(text: string, key: string | undefined): string {
  return key ? text.split(key).join(maskKey(key)) : text;
}
