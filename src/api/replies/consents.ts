// Consents and grants, as documented: POST /v1/consents shows `id`, `token`, `data_url`, `scopes`
// and `expires_at`; the data a consent or a grant opens (GET /v1/consents/{id}/data,
// GET /v1/grants/{id}/data) shows `scopes` and `data`, one part per scope. None is required: a
// reply of another shape is shown as it came.
import { object, objectAsReceived, text, textOrTexts } from './schema.js';

/** In the order `svc consents create` reads them. */
export const ConsentReply = object({
  scopes: textOrTexts(),
  id: text(),
  token: text(),
  data_url: text(),
  expires_at: text(),
});

/**
 * `data` as received: each scope's part is shown by the generic view, its fields in their order.
 */
export const ScopedDataReply = object({ scopes: textOrTexts(), data: objectAsReceived() });
