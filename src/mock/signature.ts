// How the mock signs its webhook deliveries, as the documents describe it: the header
// `X-Svc-Signature: t=<unix seconds>,v1=<hex>`, where v1 is HMAC-SHA256 of "<t>.<raw body>" keyed
// with the endpoint's signing secret. The mock keeps its own copy so it never agrees with the
// CLI's verifier by construction.
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Svc-Signature';

/** A fresh signing secret (its form is not documented): `whsec_` and 32 random bytes in hex. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

/** The header value for `body` signed at `now`. */
export function signatureHeader(secret: string, body: string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}
