// Webhook signatures as the CLI checks them, in one place for the receiver (webhooks listen) and
// the offline check (webhooks verify). A delivery carries `X-Svc-Signature: t=<unix
// seconds>,v1=<hex>`, where v1 is HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret
// (docs/guides/webhooks-and-ci.md, "How the secret is agreed"). svc mock signs with its own copy
// (src/mock/signature.ts), so the two never agree by construction: the signing functions here
// (signatureHeader, newSigningSecret) are for the tests, which sign as a sender would.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Svc-Signature';

/** A delivery signed longer ago than this (or this far in the future) is stale. */
export const TOLERANCE_SECONDS = 300;

type Body = string | Uint8Array;

/** A fresh signing secret: `whsec_` and 32 random bytes in hex. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

/** HMAC-SHA256 of "<t>.<body>" in lower-case hex. */
export function computeSignature(secret: string, timestamp: number, body: Body): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The header value for a body signed at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, body: Body, timestamp: number = unixNow()): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, body)}`;
}

export interface ParsedSignature {
  timestamp: number;
  /** Every v1 value given (a sender rolling its secret may send two). */
  signatures: string[];
}

/**
 * Reads `t=…,v1=…` (other schemes such as v0 are ignored); a reason, as a string, when unreadable.
 */
export function parseSignatureHeader(header: string): ParsedSignature | string {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return `the signature header has a part without "=": "${part.trim()}"`;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') {
      if (!/^\d{1,12}$/.test(value))
        return `the timestamp t="${value}" is not a whole number of seconds`;
      timestamp = Number(value);
    } else if (name === 'v1') {
      signatures.push(value);
    }
  }
  if (timestamp === undefined) return 'the signature header has no timestamp (t=…)';
  if (signatures.length === 0) return 'the signature header has no v1 signature';
  return { timestamp, signatures };
}

export type Verdict =
  | { valid: true; timestamp: number; ageSeconds: number }
  | { valid: false; reason: string; timestamp?: number };

/** What the header alone says: unreadable or stale, or its timestamp, age and signatures. */
export type HeaderVerdict =
  | { valid: true; timestamp: number; ageSeconds: number; signatures: string[] }
  | { valid: false; reason: string; timestamp?: number };

export interface HeaderInput {
  /** The value of the X-Svc-Signature header (a whole `Name: value` line is accepted too). */
  header: string;
  /** Unix seconds; defaults to now. */
  now?: number;
  toleranceSeconds?: number;
}

export interface VerifyInput extends HeaderInput {
  secret: string;
  /** The raw body, byte for byte as delivered. */
  body: Body;
}

/**
 * Checks the header's form and its age, which need no body: a receiver refuses a malformed or
 * stale delivery before reading (or buffering) a byte of its body.
 */
export function checkSignatureHeader(input: HeaderInput): HeaderVerdict {
  const parsed = parseSignatureHeader(headerValue(input.header));
  if (typeof parsed === 'string') return { valid: false, reason: parsed };
  const now = input.now ?? unixNow();
  const tolerance = input.toleranceSeconds ?? TOLERANCE_SECONDS;
  const age = now - parsed.timestamp;
  if (age > tolerance) {
    return {
      valid: false,
      reason: `stale: signed ${inWords(age)} ago, more than the ${tolerance} s allowed`,
      timestamp: parsed.timestamp,
    };
  }
  if (-age > tolerance) {
    return {
      valid: false,
      reason: `signed ${inWords(-age)} in the future, more than the ${tolerance} s allowed (is a clock wrong?)`,
      timestamp: parsed.timestamp,
    };
  }
  return {
    valid: true,
    timestamp: parsed.timestamp,
    ageSeconds: age,
    signatures: parsed.signatures,
  };
}

/** Checks a delivery: the header's form, its age, then the HMAC (compared in constant time). */
export function verifySignature(input: VerifyInput): Verdict {
  const header = checkSignatureHeader(input);
  if (!header.valid) return header;
  const expected = Buffer.from(computeSignature(input.secret, header.timestamp, input.body), 'hex');
  const matches = header.signatures.some((candidate) => {
    if (!/^[0-9a-fA-F]{64}$/.test(candidate)) return false;
    return timingSafeEqual(expected, Buffer.from(candidate, 'hex'));
  });
  if (!matches)
    return {
      valid: false,
      reason: 'the signature does not match the body and the secret',
      timestamp: header.timestamp,
    };
  return { valid: true, timestamp: header.timestamp, ageSeconds: header.ageSeconds };
}

/**
 * An age as a person reads it: seconds near the 300 s allowed (301 s), then minutes, hours, days
 * and years; never "1795418212 s" (a `t` of 0, say).
 */
function inWords(seconds: number): string {
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 600) return `${seconds} s`;
  if (seconds < 2 * 3600) return count(Math.floor(seconds / 60), 'minute');
  if (seconds < 2 * 86_400) return count(Math.floor(seconds / 3600), 'hour');
  if (seconds < 2 * 365 * 86_400) return count(Math.floor(seconds / 86_400), 'day');
  return count(Math.floor(seconds / (365.25 * 86_400)), 'year');
}

/** `X-Svc-Signature: t=…` → `t=…`; a bare value is returned as is. */
function headerValue(header: string): string {
  const match = /^\s*x-svc-signature\s*:(.*)$/is.exec(header);
  return (match ? match[1]! : header).trim();
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
