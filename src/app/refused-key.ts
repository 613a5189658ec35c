// A refused API key named by where it came from (never shown): the layer of the client that joins
// the settings (config) to the replies (api). See report-error.ts for the message.
import type { ApiClient } from '../api/client.js';
import { keySource, refusesKey, type Settings } from '../config/resolve.js';

/** The client, whose authentication failures say which key was refused: `--api-key`, `SVC_API_KEY` or a profile's. */
export function namingRefusedKey(client: ApiClient, settings: Settings): ApiClient {
  const request = client.request.bind(client);
  client.request = async (spec) => {
    try {
      return await request(spec);
    } catch (error) {
      if (refusesKey(error)) error.trouble ??= keySource(settings);
      throw error;
    }
  };
  return client;
}
