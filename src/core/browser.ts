// Opening a page in the user's browser, with the `open` package, one of the packages apart from
// the program (external.ts, dist/external.cjs): reached when a page is opened, so that no other
// run loads that file.
import { type OwnVariable, setAsideOwnVariables } from './variables.js';

export async function openInBrowser(url: string, own: OwnVariable): Promise<void> {
  const { default: open } = await (await import('./external.js')).importOpen();
  // `open` starts the browser with this process's environment and takes no other: the program's
  // own variables (keys, tokens and secrets) are set aside while it does, so a browser, its
  // extensions and whatever it starts never see them.
  const restore = setAsideOwnVariables(process.env, own);
  try {
    await open(url);
  } finally {
    restore();
  }
}
