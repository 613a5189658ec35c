// A refused API key named by where it came from (never shown): a layer of the client that joins
// the settings (config) to the replies (api). See report-error.ts for the message.
import type { Layer } from '../api/client.js';
import { keySource, refusesKey, type Settings } from '../config/resolve.js';

/**
 * The layer whose authentication failures say which key was refused: `--api-key`, `SVC_API_KEY` or
 * a profile's.
 */
export function namingRefusedKey(settings: Settings): Layer {
  return (next) => async (spec) => {
    try {
      return await next(spec);
    } catch (error) {
      if (refusesKey(error)) error.trouble ??= keySource(settings);
      throw error;
    }
  };
}
