// Opening a page in the user's browser, with the `open` package: a module of its own, loaded only
// by the commands that open one, so that no other command loads dist/external.cjs at its start.
import { setAsideOwnVariables } from './environment.js';
import { importOpen } from './external.js';

export async function openInBrowser(url: string): Promise<void> {
  const { default: open } = await importOpen();
  // `open` starts the browser with this process's environment and takes no other: svc's own
  // variables (SVC_API_KEY, SVC_ACCESS_TOKEN, tokens and secrets) are set aside while it does, so a
  // browser, its extensions and whatever it starts never see them.
  const restore = setAsideOwnVariables(process.env);
  try {
    await open(url);
  } finally {
    restore();
  }
}
