// The environment as core reads it: the variables every terminal program honours (colour, pager,
// time zone, CI). What each one does is in THE list, src/service/environment.ts; a test checks that
// every name read through readEnv is listed there.

export type Env = Readonly<Record<string, string | undefined>>;

/** The variables core reads. */
type CommonVariable =
  'NO_COLOR' | 'CLICOLOR' | 'FORCE_COLOR' | 'CLICOLOR_FORCE' | 'TERM' | 'CI' | 'TZ' | 'LESS';

/** The value of a variable, exactly as set (an empty string stays empty). */
export function readEnv(env: Env, name: CommonVariable): string | undefined {
  return env[name];
}

/** Whether a variable is the program's own (its keys, tokens and secrets among them). */
export type OwnVariable = (name: string) => boolean;

/**
 * Removes the program's own variables from `env`, for a child process that has no use for them;
 * returns what puts them back.
 */
export function setAsideOwnVariables(env: NodeJS.ProcessEnv, own: OwnVariable): () => void {
  const removed = Object.entries(env).filter(([name, value]) => own(name) && value !== undefined);
  for (const [name] of removed) delete env[name];
  return () => Object.assign(env, Object.fromEntries(removed));
}
