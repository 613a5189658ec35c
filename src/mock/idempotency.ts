// Idempotency-Key on POST requests, as the documents describe it: keys are scoped per
// organisation and environment; the same key with the same parameters within 24 hours replays the
// original reply (header `Idempotent-Replayed: true`) and creates or charges nothing again; the
// same key still in flight is 409 IDEMPOTENCY_IN_PROGRESS; with other parameters 422
// IDEMPOTENCY_KEY_REUSED. A 5xx releases the key: only successes and client errors are kept.
//
// The table is bounded, so that a long benchmark (svc sends a new key with every POST) does not
// grow the mock: at most 10,000 keys and 16 MiB of replies by default, the oldest forgotten first.
// Replies are kept as their JSON in UTF-8, in buffers outside the JavaScript heap (where the
// garbage collector does not move them): the buffer the server sent, and a replay sends the same
// JSON text. A retry comes within seconds, long before its key is forgotten.
import { createHash } from 'node:crypto';

import type { Clock } from './dates.js';
import { ApiError } from './errors.js';
import { bodyBytes, JsonText, parseJsonBody, type Reply, type RequestBody } from './http.js';
import { multipartBoundary, parseMultipart } from './multipart.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const KEY_LENGTH = { min: 8, max: 255 };
const LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Keys remembered at most; the oldest are forgotten first. */
export const DEFAULT_CAPACITY = 10_000;
/** Bytes of replies (their JSON text) remembered at most; the oldest keys are forgotten first. */
export const DEFAULT_REPLY_BYTES = 16 * 1024 * 1024;

export interface IdempotencyLimits {
  /** Keys remembered at most (default 10,000). */
  capacity?: number;
  /** Bytes of replies remembered at most, counted as UTF-8 JSON text (default 16 MiB). */
  replyBytes?: number;
}

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

/**
 * A claimed key: the reply to replay now, or a request to run and then settle. `settle` takes the
 * reply's body as UTF-8 JSON too when the caller has made it already (it is what the table keeps).
 */
export type Claim =
  { replay: Reply } | { settle(reply: Reply, json?: Buffer): void; release(): void };

/** A settled reply as the table keeps it: its body as UTF-8 JSON. */
interface StoredReply {
  status: number;
  headers: Record<string, string> | undefined;
  json: Buffer;
}

interface Entry {
  fingerprint: string;
  storedAt: number;
  /** Absent while the first request is in flight. */
  reply?: StoredReply;
}

export class IdempotencyTable {
  private readonly entries = new Map<string, Entry>();
  private readonly capacity: number;
  private readonly replyBytes: number;
  /** Bytes of the replies kept now. */
  private bytes = 0;

  constructor(
    private readonly clock: Clock,
    { capacity, replyBytes }: IdempotencyLimits = {},
  ) {
    this.capacity = capacity ?? DEFAULT_CAPACITY;
    this.replyBytes = replyBytes ?? DEFAULT_REPLY_BYTES;
  }

  /** Reads the key of a request; throws the documented errors for a conflict. */
  claim(request: IdempotentRequest): Claim {
    if (request.key.length < KEY_LENGTH.min || request.key.length > KEY_LENGTH.max) {
      throw new ApiError(
        'INVALID_REQUEST',
        `Idempotency-Key must be ${KEY_LENGTH.min} to ${KEY_LENGTH.max} characters long.`,
      );
    }
    const id = `${request.scope}\n${request.key}`;
    const fingerprint = fingerprintOf(request);
    const now = this.clock().getTime();
    const found = this.entries.get(id);
    if (found && now - found.storedAt < LIFETIME_MS) {
      if (found.fingerprint !== fingerprint) {
        throw new ApiError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used with different parameters.',
        );
      }
      if (!found.reply)
        throw new ApiError(
          'IDEMPOTENCY_IN_PROGRESS',
          'A request with this Idempotency-Key is still being processed.',
        );
      const { status, headers, json } = found.reply;
      // Sent as the same JSON text, not parsed only to be written again.
      return {
        replay: {
          status,
          body: new JsonText(json.toString('utf8')),
          headers: { ...headers, [REPLAYED_HEADER]: 'true' },
        },
      };
    }
    // A new or expired key: (re)inserted last, so the map stays in the order keys were claimed.
    this.forget(id);
    const entry: Entry = { fingerprint, storedAt: now };
    this.entries.set(id, entry);
    this.trim();
    const ours = () => this.entries.get(id) === entry;
    return {
      settle: (reply, json) => {
        if (!ours()) return;
        if (reply.status >= 500) return this.forget(id);
        const stored = json ?? bodyBytes(reply.body);
        // A reply larger than the whole limit is not kept (a retry runs again), rather than
        // evicting every other key for it.
        if (stored.length > this.replyBytes) return this.forget(id);
        entry.reply = { status: reply.status, headers: reply.headers, json: stored };
        this.bytes += stored.length;
        this.trim();
      },
      release: () => {
        if (ours()) this.forget(id);
      },
    };
  }

  /** Keys remembered, settled or in flight. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes of the replies remembered. */
  get replyBytesKept(): number {
    return this.bytes;
  }

  private forget(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.reply?.json.length ?? 0;
  }

  /** Forgets the oldest keys until both limits hold. */
  private trim(): void {
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity && this.bytes <= this.replyBytes) break;
      this.forget(oldest);
    }
  }
}

/**
 * The parameters of a request: method, path, query and body. A multipart body counts by its parts
 * (a retry may choose another boundary), a JSON body by its value (another spacing is the same).
 */
function fingerprintOf(request: IdempotentRequest): string {
  const hash = createHash('sha256').update(
    `${request.method} ${request.url.pathname}?${request.url.searchParams.toString()}\n`,
  );
  const boundary = multipartBoundary(request.contentType);
  const parts = boundary ? readParts(request.body.data, boundary) : undefined;
  if (parts) {
    for (const part of parts)
      hash.update(`${part.name}\0${part.filename ?? ''}\0${part.data.length}\0`).update(part.data);
    return hash.digest('hex');
  }
  // Parsed once for the request: the handler reads the same parse.
  const json = parseJsonBody(request.body);
  return hash.update(json.ok ? JSON.stringify(json.value) : request.body.data).digest('hex');
}

function readParts(data: Buffer, boundary: string) {
  try {
    return parseMultipart(data, boundary);
  } catch {
    return undefined; // not readable as multipart: compared byte for byte
  }
}
