// Reading request bodies so that no client, nor many at once, can take the mock's memory: a body
// is kept only up to a cap of its own, and all the bodies kept at one time share one budget. A
// declared Content-Length is weighed before a byte is read; a body without one (chunked) is
// weighed as it comes. What does not fit is not read at all: the server answers and closes.
import type { IncomingMessage } from 'node:http';

import type { RequestBody } from './http.js';

/** The bytes of all request bodies held in memory at one time. */
export class BodyBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** Takes `bytes` from the budget; false (and nothing taken) when they do not fit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

export type BodyRead =
  /** The whole body; `release` gives its bytes back to the budget once the request is answered. */
  | { kind: 'read'; body: RequestBody; release: () => void }
  /** Longer than the cap (declared so, or found so while reading): the rest is not read. */
  | { kind: 'too-large' }
  /** It would pass the budget of all bodies held at once: refused for now, nothing kept. */
  | { kind: 'busy' }
  /** The client went away before sending the whole body. */
  | { kind: 'gone' };

const EMPTY = Buffer.alloc(0);

/** The body of a request that has none (no Content-Length, or 0, and no Transfer-Encoding). */
export function emptyBody(): RequestBody {
  return { data: EMPTY, size: 0 };
}

/** True when the request announces no body, so there is nothing to wait for. */
export function hasNoBody(req: IncomingMessage): boolean {
  const { headers } = req;
  return (
    headers['transfer-encoding'] === undefined &&
    (headers['content-length'] === undefined || headers['content-length'] === '0')
  );
}

/** The Content-Length the request declares, or undefined for a body of unknown length (chunked). */
export function declaredLength(req: IncomingMessage): number | undefined {
  // Node's parser refuses a malformed or doubled Content-Length, and a request with both headers.
  const header = req.headers['content-length'];
  return header === undefined || req.headers['transfer-encoding'] !== undefined
    ? undefined
    : Number(header);
}

/** Reads the body of at most `cap` bytes within `budget`; never keeps a byte past either. */
export function readBody(req: IncomingMessage, cap: number, budget: BodyBudget): Promise<BodyRead> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > cap) return Promise.resolve({ kind: 'too-large' });
  // A declared length is taken whole at once: the bytes will come.
  if (declared !== undefined && !budget.take(declared)) return Promise.resolve({ kind: 'busy' });
  let taken = declared ?? 0;
  const release = () => {
    budget.give(taken);
    taken = 0;
  };
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (read: BodyRead) => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onClose);
      if (read.kind !== 'read') {
        release();
        req.pause(); // the rest stays in the socket, which the answer closes
      }
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) return finish({ kind: 'too-large' });
      if (declared === undefined) {
        if (!budget.take(chunk.length)) return finish({ kind: 'busy' });
        taken += chunk.length;
      }
      chunks.push(chunk);
    };
    const onEnd = () =>
      finish({ kind: 'read', body: { data: Buffer.concat(chunks, size), size }, release });
    const onGone = () => finish({ kind: 'gone' });
    const onClose = () => {
      if (!req.complete) onGone();
    };
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onClose);
  });
}
