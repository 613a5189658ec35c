// What a webhook delivery carries. The sandbox sends these on demand (`svc sandbox fire`); the
// service sends the same kinds when a report is ready or has failed.

export const EVENT_KINDS = ['report.ready', 'report.failed'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** The JSON body of a delivery. */
export interface WebhookEvent {
  event: string;
  report_id: string;
  /** When the event happened: ISO 8601, UTC, to the second. */
  timestamp: string;
  /** Only on `report.failed`: why the report failed, e.g. TAMPER_DETECTED. */
  error_code?: string;
}

/**
 * The largest delivery body taken (by `webhooks listen`, 413 past it) or checked (`webhooks
 * verify`): a delivery carries the full report as `result`, a few hundred KiB for years of
 * transactions; svc mock's are under 100 KiB.
 */
export const MAX_DELIVERY_BYTES = 4 * 1024 * 1024;

/** An error code as the service writes them: upper-case letters, digits and underscores. */
export const ERROR_CODE_FORM = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The body read back, when it has the fields every event has; undefined otherwise. */
export function readEvent(value: unknown): WebhookEvent | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const e = value as Record<string, unknown>;
  if (
    typeof e.event !== 'string' ||
    typeof e.report_id !== 'string' ||
    typeof e.timestamp !== 'string'
  )
    return undefined;
  if (e.error_code !== undefined && typeof e.error_code !== 'string') return undefined;
  return e as unknown as WebhookEvent;
}
