// Passes a verified delivery on to the user's own endpoint (`webhooks listen --forward-to`):
// the same body and the same signature, so that endpoint can verify it too.
import type { Delivery } from './receiver.js';

/** Headers passed on: the content type, the sender's user agent and every X-Svc-… header. */
function forwardedHeaders(delivery: Delivery): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers)) {
    if (value === undefined) continue;
    if (name === 'content-type' || name === 'user-agent' || name.startsWith('x-svc-')) {
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return headers;
}

/** POSTs the delivery to `url`; resolves with the status answered, rejects on a network failure or timeout. */
export async function forwardDelivery(url: string, delivery: Delivery, options: { timeoutMs: number; signal: AbortSignal }): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: forwardedHeaders(delivery),
    body: delivery.raw,
    redirect: 'manual',
    signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
  });
  await response.arrayBuffer().catch(() => undefined);
  return response.status;
}
