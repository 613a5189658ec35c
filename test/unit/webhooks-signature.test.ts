// The one signature module used by svc mock (sending), webhooks listen and webhooks verify.
import { createHmac } from 'node:crypto';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  checkSignatureHeader,
  computeSignature,
  newSigningSecret,
  parseSignatureHeader,
  signatureHeader,
  verifySignature,
} from '../../src/webhooks/signature.js';

const SECRET = 'whsec_0123456789abcdef';
const T = 1_767_225_600; // 2026-01-01T00:00:00Z
const BODY =
  '{"event":"report.ready","report_id":"rpt_e8699f830adc84b8","timestamp":"2026-01-01T00:00:00Z"}';

/**
 * The definition of docs/guides/webhooks-and-ci.md, written out independently: HMAC-SHA256 of
 * "<t>.<raw body>", hex.
 */
function reference(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
}

describe('signing', () => {
  it('is HMAC-SHA256 of "<t>.<body>" in hex, in a t=…,v1=… header', () => {
    expect(computeSignature(SECRET, T, BODY)).toBe(reference(SECRET, T, BODY));
    expect(signatureHeader(SECRET, BODY, T)).toBe(`t=${T},v1=${reference(SECRET, T, BODY)}`);
  });

  it('signs bytes as given (a body that is not UTF-8 text too)', () => {
    const bytes = Buffer.from([0xff, 0x00, 0x7b, 0x0a]);
    const expected = createHmac('sha256', SECRET)
      .update(Buffer.concat([Buffer.from(`${T}.`), bytes]))
      .digest('hex');
    expect(computeSignature(SECRET, T, bytes)).toBe(expected);
  });

  it('makes a new secret each time', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(newSigningSecret()).not.toBe(a);
  });
});

describe('verifying', () => {
  const header = `t=${T},v1=${reference(SECRET, T, BODY)}`;

  it('accepts a delivery signed with the secret, reporting its age', () => {
    expect(verifySignature({ secret: SECRET, header, body: BODY, now: T + 12 })).toEqual({
      valid: true,
      timestamp: T,
      ageSeconds: 12,
    });
  });

  it('accepts the whole header line and a Buffer body', () => {
    expect(
      verifySignature({
        secret: SECRET,
        header: `X-Svc-Signature: ${header}`,
        body: Buffer.from(BODY),
        now: T,
      }).valid,
    ).toBe(true);
  });

  it('refuses a tampered body and a wrong secret', () => {
    const tampered = verifySignature({
      secret: SECRET,
      header,
      body: BODY.replace('report.ready', 'report.failed'),
      now: T,
    });
    expect(tampered).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/does not match/),
    });
    expect(verifySignature({ secret: 'whsec_other', header, body: BODY, now: T }).valid).toBe(
      false,
    );
    expect(verifySignature({ secret: SECRET, header, body: BODY + '\n', now: T }).valid).toBe(
      false,
    );
  });

  it('allows 300 s of age and refuses a delivery older than that as stale', () => {
    expect(verifySignature({ secret: SECRET, header, body: BODY, now: T + 300 }).valid).toBe(true);
    expect(verifySignature({ secret: SECRET, header, body: BODY, now: T + 301 })).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/^stale: signed 301 s ago/),
    });
  });

  it('refuses a delivery signed too far in the future', () => {
    expect(verifySignature({ secret: SECRET, header, body: BODY, now: T - 301 })).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/future/),
    });
    expect(verifySignature({ secret: SECRET, header, body: BODY, now: T - 300 }).valid).toBe(true);
  });

  it('does not let a valid signature over another timestamp through', () => {
    const moved = `t=${T + 1},v1=${reference(SECRET, T, BODY)}`;
    expect(verifySignature({ secret: SECRET, header: moved, body: BODY, now: T }).valid).toBe(
      false,
    );
  });

  it('accepts any one of several v1 values and ignores other schemes', () => {
    const rolled = `t=${T},v1=${'0'.repeat(64)},v0=zzz,v1=${reference(SECRET, T, BODY)}`;
    expect(verifySignature({ secret: SECRET, header: rolled, body: BODY, now: T }).valid).toBe(
      true,
    );
  });

  it.each([
    ['', /part without "="/],
    ['garbage', /part without "="/],
    [`v1=${'a'.repeat(64)}`, /no timestamp/],
    [`t=${T}`, /no v1 signature/],
    [`t=soon,v1=${'a'.repeat(64)}`, /not a whole number/],
    [`t=${T},v1=xyz`, /does not match/],
    [`t=${T},v1=${'a'.repeat(63)}`, /does not match/],
  ])('refuses the header %j with a reason', (bad, reason) => {
    const verdict = verifySignature({ secret: SECRET, header: bad, body: BODY, now: T });
    expect(verdict.valid).toBe(false);
    if (!verdict.valid) expect(verdict.reason).toMatch(reason);
  });

  it('reads headers with spaces around the parts', () => {
    expect(parseSignatureHeader(` t = ${T} , v1 = abc `)).toEqual({
      timestamp: T,
      signatures: ['abc'],
    });
  });

  it('verifies what it signs, and nothing with one byte changed (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.string({ minLength: 1 }),
        fc.nat(),
        (bytes, secret, seed) => {
          const body = Buffer.from(bytes);
          const signed = signatureHeader(secret, body, T);
          expect(verifySignature({ secret, header: signed, body, now: T }).valid).toBe(true);
          const changed = Buffer.from(body);
          const at = seed % changed.length;
          changed[at] = changed[at]! ^ (1 + (seed % 255));
          expect(verifySignature({ secret, header: signed, body: changed, now: T }).valid).toBe(
            false,
          );
        },
      ),
    );
  });
});

describe('checking the header alone, before any body is read', () => {
  it('gives the timestamp, the age and the signatures of a fresh header', () => {
    const header = signatureHeader(SECRET, BODY, T);
    expect(checkSignatureHeader({ header, now: T + 7 })).toEqual({
      valid: true,
      timestamp: T,
      ageSeconds: 7,
      signatures: [computeSignature(SECRET, T, BODY)],
    });
  });

  it.each([
    [`t=${T - 301},v1=00`, /^stale: signed 301 s ago/],
    [`t=${T + 301},v1=00`, /^signed 301 s in the future/],
    ['v1=00', /has no timestamp/],
  ])('refuses %s as verifySignature would, with no body', (header, reason) => {
    const verdict = checkSignatureHeader({ header, now: T });
    expect(verdict).toMatchObject({ valid: false, reason: expect.stringMatching(reason) });
    expect(verifySignature({ secret: SECRET, header, body: BODY, now: T })).toEqual(verdict);
  });
});
