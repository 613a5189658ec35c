// The environment as core reads it: the variables every terminal program honours (colour, pager,
// time zone, CI). What each one does is in THE list, src/service/environment.ts; a test checks that
// every name read through readEnv is listed there.
import type { Env } from './environment.js';

/** The variables core reads. */
type CommonVariable =
  'NO_COLOR' | 'CLICOLOR' | 'FORCE_COLOR' | 'CLICOLOR_FORCE' | 'TERM' | 'CI' | 'TZ' | 'LESS';

/** The value of a variable, exactly as set (an empty string stays empty). */
export function readEnv(env: Env, name: CommonVariable): string | undefined {
  return env[name];
}
