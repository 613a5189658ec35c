// POST /v1/sandbox/webhooks/fire, as documented: `fired`, `report_id` and `environment`, none
// required. (svc mock adds `delivered_to`, which the command reads where it comes.) POST
// /v1/sandbox/reports shows the report (reports.ts), of which `--quiet` must have the id.
import { anyBody, object, requiredText, strings, text } from './schema.js';

export const FireReply = object({ fired: text(), report_id: text(), environment: text() });

/** svc mock's `delivered_to`, undocumented: read apart, never noted for --debug. */
const Delivered = object({ delivered_to: strings() });

/** The endpoints svc mock delivered the event to, when the reply lists them as texts. */
export function deliveredTo(body: unknown): string[] | undefined {
  return Delivered.parse(body)?.delivered_to;
}

/**
 * What `svc sandbox create --quiet` prints: the report's id, a reply without one being of no use.
 */
export const ReportIdReply = anyBody({ report_id: requiredText() });

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply } from './schema.js';
