// Opening a page in the user's browser, with the `open` package, one of the packages apart from
// the program (external.ts, dist/external.cjs): reached when a page is opened, so that no other
// run loads that file.
import { setAsideOwnVariables } from './variables.js';

export async function openInBrowser(url: string): Promise<void> {
  const { default: open } = await (await import('./external.js')).importOpen();
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
