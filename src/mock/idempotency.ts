// Idempotency-Key on POST requests, as the documents describe it: keys are scoped per
// organisation and environment; the same key with the same parameters within 24 hours replays the
// original reply (header `Idempotent-Replayed: true`) and creates or charges nothing again; the
// same key still in flight is 409 IDEMPOTENCY_IN_PROGRESS; with other parameters 422
// IDEMPOTENCY_KEY_REUSED. A 5xx releases the key: only successes and client errors are kept.
import { createHash } from 'node:crypto';
import type { Clock } from './dates.js';
import { ApiError } from './errors.js';
import type { Reply, RequestBody } from './http.js';
import { multipartBoundary, parseMultipart } from './multipart.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const KEY_LENGTH = { min: 8, max: 255 };
const LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Keys remembered at most; the oldest are forgotten first. */
export const DEFAULT_CAPACITY = 10_000;

/** What a POST asks for, compared when its key comes again. */
export interface IdempotentRequest {
  /** Organisation and environment of the caller's key. */
  scope: string;
  key: string;
  method: string;
  url: URL;
  contentType: string | undefined;
  body: RequestBody;
}

/** A claimed key: the reply to replay now, or a request to run and then settle. */
export type Claim = { replay: Reply } | { settle(reply: Reply): void; release(): void };

interface Entry {
  fingerprint: string;
  storedAt: number;
  /** Absent while the first request is in flight. */
  reply?: Reply;
}

export class IdempotencyTable {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  /** Reads the key of a request; throws the documented errors for a conflict. */
  claim(request: IdempotentRequest): Claim {
    if (request.key.length < KEY_LENGTH.min || request.key.length > KEY_LENGTH.max) {
      throw new ApiError('INVALID_REQUEST', `Idempotency-Key must be ${KEY_LENGTH.min} to ${KEY_LENGTH.max} characters long.`);
    }
    const id = `${request.scope}\n${request.key}`;
    const fingerprint = fingerprintOf(request);
    const now = this.clock().getTime();
    const found = this.entries.get(id);
    if (found && now - found.storedAt < LIFETIME_MS) {
      if (found.fingerprint !== fingerprint) {
        throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with different parameters.');
      }
      if (!found.reply) throw new ApiError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed.');
      return { replay: { ...found.reply, headers: { ...found.reply.headers, [REPLAYED_HEADER]: 'true' } } };
    }
    // A new or expired key: (re)inserted last, so the map stays in the order keys were claimed.
    this.entries.delete(id);
    const entry: Entry = { fingerprint, storedAt: now };
    this.entries.set(id, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
    }
    const ours = () => this.entries.get(id) === entry;
    return {
      settle: (reply) => {
        if (!ours()) return;
        if (reply.status >= 500) this.entries.delete(id);
        else entry.reply = reply;
      },
      release: () => {
        if (ours()) this.entries.delete(id);
      },
    };
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The parameters of a request: method, path, query and body. A multipart body counts by its parts
 * (a retry may choose another boundary), a JSON body by its value (another spacing is the same).
 */
function fingerprintOf(request: IdempotentRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url.pathname}?${request.url.searchParams.toString()}\n`);
  const boundary = multipartBoundary(request.contentType);
  const parts = boundary ? readParts(request.body.data, boundary) : undefined;
  if (parts) {
    for (const part of parts) hash.update(`${part.name}\0${part.filename ?? ''}\0${part.data.length}\0`).update(part.data);
    return hash.digest('hex');
  }
  const json = readJson(request.body.data);
  return hash.update(json === undefined ? request.body.data : JSON.stringify(json)).digest('hex');
}

function readParts(data: Buffer, boundary: string) {
  try {
    return parseMultipart(data, boundary);
  } catch {
    return undefined; // not readable as multipart: compared byte for byte
  }
}

function readJson(data: Buffer): unknown {
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    return undefined;
  }
}
