// Consents and grants, as documented: POST /v1/consents shows `id`, `token`, `data_url`, `scopes`
// and `expires_at`; the data a consent or a grant opens (GET /v1/consents/{id}/data,
// GET /v1/grants/{id}/data) shows `scopes` and `data`, one part per scope. None is required: a
// reply of another shape is shown as it came.
import { field, loose } from './schema.js';

/** In the order `svc consents create` reads them. */
export const ConsentReply = loose({
  scopes: field(),
  id: field(),
  token: field(),
  data_url: field(),
  expires_at: field(),
});

export const ScopedDataReply = loose({ scopes: field(), data: field() });
