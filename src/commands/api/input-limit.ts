// How much `svc api` sends from files and standard input: a module of its own, so that the help,
// read at every start, does not load the reading code (and node:fs/promises) with it.

/** Files and standard input together, per request: more than the service takes in any body. */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;
/** MAX_INPUT_BYTES as the help and the messages write it. */
export const MAX_INPUT_SIZE = `${MAX_INPUT_BYTES / 1024 / 1024} MB`;
