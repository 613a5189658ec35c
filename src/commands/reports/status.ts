// Colours of the states and bands people scan for; a value no document names is shown plain.
import type { Paint } from '../../core/output/paint.js';

/** The states of a report, as `reports list --status` takes them. */
export const REPORT_STATUSES = ['complete', 'processing', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export function paintReportStatus(status: string, paint: Paint): string {
  if (status === 'complete') return paint.good(status);
  if (status === 'processing') return paint.warn(status);
  if (status === 'failed') return paint.bad(status);
  return status;
}

export function paintMatchResult(result: string, paint: Paint): string {
  if (result === 'match') return paint.good(result);
  if (result === 'partial_match') return paint.warn(result);
  if (result === 'no_match') return paint.bad(result);
  return paint.dim(result);
}
