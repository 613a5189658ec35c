// Opening a page in the user's browser, with the `open` package: a module of its own, loaded only
// by the commands that open one, so that no other command loads dist/external.cjs at its start.
import { importOpen } from './external.js';

export async function openInBrowser(url: string): Promise<void> {
  const { default: open } = await importOpen();
  // `open` starts the browser with this process's environment and takes no other: svc's own
  // variables (SVC_API_KEY, SVC_ACCESS_TOKEN, tokens and secrets) are set aside while it does, so a
  // browser, its extensions and whatever it starts never see them.
  const setAside = withoutOwnVariables(process.env);
  try {
    await open(url);
  } finally {
    Object.assign(process.env, setAside);
  }
}

/** Removes every SVC_ variable from `env`; returns them, to be put back. */
function withoutOwnVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const removed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.toUpperCase().startsWith('SVC_') || value === undefined) continue;
    removed[name] = value;
    delete env[name];
  }
  return removed;
}
