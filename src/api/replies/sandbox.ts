// POST /v1/sandbox/webhooks/fire, as documented: `fired`, `report_id` and `environment`, none
// required. (svc mock adds `delivered_to`, which the command reads where it comes.)
import { field, loose } from './schema.js';

export const FireReply = loose({ fired: field(), report_id: field(), environment: field() });

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply } from './schema.js';
