// Deliveries already accepted, so a copy sent again (by an attacker who saw one, or a proxy that
// repeats requests) is refused. A signature is remembered only as long as it is fresh: past the
// tolerance window the delivery is refused as stale anyway.
import { TOLERANCE_SECONDS, unixNow } from './signature.js';

export class ReplayGuard {
  /** Signature → when it was signed (unix seconds). */
  private readonly accepted = new Map<string, number>();

  constructor(private readonly toleranceSeconds: number = TOLERANCE_SECONDS) {}

  /** True the first time a signature is offered; false for a replay of one already accepted. */
  accept(signature: string, signedAt: number, now: number = unixNow()): boolean {
    for (const [seen, at] of this.accepted)
      if (now - at > this.toleranceSeconds) this.accepted.delete(seen);
    if (this.accepted.has(signature)) return false;
    this.accepted.set(signature, signedAt);
    return true;
  }
}
