// Injected faults for tests: a queue of specs, each answering (or delaying, or resetting) the next
// `times` matching requests instead of the normal handler. Lets e2e tests provoke retries,
// timeouts, non-JSON replies and dropped connections on demand.
import type { ServerResponse } from 'node:http';

import { sendRaw } from './http.js';

export interface FaultSpec {
  /** HTTP method to match (any case); any method when absent. */
  method?: string;
  /** Prefix of the request's pathname to match; any path when absent. */
  path?: string;
  /** How many matching requests this spec answers (default 1). */
  times?: number;
  /** Status of the injected reply (default 500 when a body is given without one). */
  status?: number;
  headers?: Record<string, string>;
  /** Raw body, sent as-is (Content-Type text/plain unless `headers` says otherwise). */
  body?: string;
  /** Body sent as JSON. */
  json?: unknown;
  /** An error in the service's flat envelope, with this request's id and documentation link. */
  error?: { error_code: string; error_type: string; error_message: string };
  /** Wait this long before replying (or before resetting, or before the normal reply). */
  delay_ms?: number;
  /** Destroy the socket without any reply. */
  reset?: boolean;
  /** Send the status, headers and this many bytes of the body, then destroy the socket. */
  cut_after_bytes?: number;
  /** Reply 200 with a valid reports list of about this many bytes (a huge reply). */
  huge_report_list_bytes?: number;
}

interface QueuedFault extends FaultSpec {
  remaining: number;
}

export class FaultSpecError extends Error {
  override name = 'FaultSpecError';
}

export class FaultQueue {
  private queue: QueuedFault[] = [];

  /** Validates and appends; accepts one spec or an array of specs. */
  add(input: unknown): number {
    const specs = (Array.isArray(input) ? input : [input]).map(validateSpec);
    this.queue.push(...specs.map((s) => ({ ...s, remaining: s.times ?? 1 })));
    return specs.length;
  }

  clear(): void {
    this.queue = [];
  }

  /** The specs still waiting, with how many uses each has left. */
  pending(): QueuedFault[] {
    return this.queue.map((f) => ({ ...f }));
  }

  /** Consumes one use of the first spec matching this request. */
  take(method: string, pathname: string): FaultSpec | undefined {
    const index = this.queue.findIndex(
      (f) =>
        (!f.method || f.method.toUpperCase() === method.toUpperCase()) &&
        (!f.path || pathname.startsWith(f.path)),
    );
    if (index < 0) return undefined;
    const fault = this.queue[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.queue.splice(index, 1);
    const { remaining: _remaining, ...spec } = fault;
    return spec;
  }
}

/**
 * True when the fault replies by itself; otherwise it only delays (and adds headers to) the normal
 * reply.
 */
export function faultReplies(fault: FaultSpec): boolean {
  return (
    fault.status !== undefined ||
    fault.body !== undefined ||
    fault.json !== undefined ||
    fault.error !== undefined ||
    fault.huge_report_list_bytes !== undefined
  );
}

/** A valid `GET /v1/reports` body of at least `bytes` bytes. */
export function hugeReportList(bytes: number): Buffer {
  const item = (i: number) =>
    `{"report_id":"rpt_${i.toString(16).padStart(16, '0')}","status":"complete","bank_code":"NABIL","created_at":"2026-01-01T00:00:00Z"}`;
  const parts: string[] = ['{"data":['];
  let size = parts[0]!.length;
  for (let i = 0; size < bytes; i++) {
    const next = (i > 0 ? ',' : '') + item(i);
    parts.push(next);
    size += next.length;
  }
  parts.push('],"has_more":false}');
  return Buffer.from(parts.join(''));
}

function validateSpec(value: unknown, index: number): FaultSpec {
  const fail = (message: string): never => {
    throw new FaultSpecError(`fault ${index}: ${message}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('must be an object');
  const spec = value as Record<string, unknown>;
  const known = [
    'method',
    'path',
    'times',
    'status',
    'headers',
    'body',
    'json',
    'error',
    'delay_ms',
    'reset',
    'cut_after_bytes',
    'huge_report_list_bytes',
  ];
  for (const key of Object.keys(spec)) if (!known.includes(key)) fail(`unknown field '${key}'`);
  if (spec.method !== undefined && typeof spec.method !== 'string') fail('method must be a string');
  if (spec.path !== undefined && (typeof spec.path !== 'string' || !spec.path.startsWith('/'))) {
    fail("path must be a string starting with '/'");
  }
  if (spec.times !== undefined && !(Number.isInteger(spec.times) && (spec.times as number) >= 1)) {
    fail('times must be an integer >= 1');
  }
  if (
    spec.status !== undefined &&
    !(
      Number.isInteger(spec.status) &&
      (spec.status as number) >= 100 &&
      (spec.status as number) <= 599
    )
  ) {
    fail('status must be an integer 100..599');
  }
  if (
    spec.delay_ms !== undefined &&
    !(typeof spec.delay_ms === 'number' && spec.delay_ms >= 0 && Number.isFinite(spec.delay_ms))
  ) {
    fail('delay_ms must be a number >= 0');
  }
  if (spec.body !== undefined && typeof spec.body !== 'string') fail('body must be a string');
  if ([spec.body, spec.json, spec.error].filter((b) => b !== undefined).length > 1)
    fail('give one of body, json and error');
  if (spec.error !== undefined) {
    const error = spec.error as Record<string, unknown> | null;
    const fields = ['error_code', 'error_type', 'error_message'];
    if (
      typeof error !== 'object' ||
      error === null ||
      !fields.every((f) => typeof error[f] === 'string')
    ) {
      fail('error must be an object with the strings error_code, error_type and error_message');
    }
  }
  if (spec.reset !== undefined && typeof spec.reset !== 'boolean') fail('reset must be a boolean');
  for (const field of ['cut_after_bytes', 'huge_report_list_bytes'] as const) {
    const n = spec[field];
    if (
      n !== undefined &&
      !(Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 512 * 1024 * 1024)
    ) {
      fail(`${field} must be an integer from 0 to 512 MiB`);
    }
  }
  if (spec.headers !== undefined) {
    const headers = spec.headers;
    if (typeof headers !== 'object' || headers === null || Array.isArray(headers))
      fail('headers must be an object');
    for (const v of Object.values(headers as object))
      if (typeof v !== 'string') fail('header values must be strings');
  }
  return spec;
}

/** Sends a fault's own reply; returns its status. */
export function sendFault(res: ServerResponse, fault: FaultSpec): number {
  const status = fault.status ?? (fault.huge_report_list_bytes !== undefined ? 200 : 500);
  const json = fault.json !== undefined || fault.huge_report_list_bytes !== undefined;
  const body =
    fault.huge_report_list_bytes !== undefined
      ? hugeReportList(fault.huge_report_list_bytes)
      : Buffer.from(fault.json !== undefined ? JSON.stringify(fault.json) : (fault.body ?? ''));
  const headers = {
    'Content-Type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    ...fault.headers,
  };
  if (fault.cut_after_bytes === undefined) {
    sendRaw(res, status, body, headers);
    return status;
  }
  // Announce the whole body, send only its start, then drop the connection.
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Length', body.length);
  res.statusCode = status;
  res.write(body.subarray(0, fault.cut_after_bytes), () => res.socket?.destroy());
  return status;
}
