// Small HTTP helpers shared by the mock's handlers: reading a capped body, replying with JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a handler answers with; errors are thrown as ApiError instead. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RequestBody {
  /** The bytes received, up to the cap. */
  data: Buffer;
  /** Every byte received, including those past the cap. */
  size: number;
  /** True when the body was larger than the cap (its tail was read and dropped). */
  overflow: boolean;
}

/** Reads the whole body; past `cap` bytes it keeps reading (so the client can finish) but drops them. */
export function readBody(req: IncomingMessage, cap: number): Promise<RequestBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (kept + chunk.length <= cap) {
        chunks.push(chunk);
        kept += chunk.length;
      }
    });
    req.on('end', () => resolve({ data: Buffer.concat(chunks, kept), size, overflow: size > cap }));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('client closed the connection before sending the whole body'));
    });
  });
}

export function parseJsonBody(body: RequestBody): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.data.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

export function sendJson(res: ServerResponse, reply: Reply): void {
  sendRaw(res, reply.status, JSON.stringify(reply.body), {
    'Content-Type': 'application/json; charset=utf-8',
    ...reply.headers,
  });
}

export function sendRaw(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  if (res.destroyed || res.headersSent) return; // the client went away, or a fault already answered
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.statusCode = status;
  res.end(body);
}
