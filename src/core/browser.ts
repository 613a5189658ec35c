// Opening a page in the user's browser, with the `open` package: a module of its own, loaded only
// by the commands that open one, so that no other command loads dist/external.cjs at its start.
import { importOpen } from './external.js';

export async function openInBrowser(url: string): Promise<void> {
  const { default: open } = await importOpen();
  await open(url);
}
