// Which command a run of the program ran, for the launcher's code cache (src/launch/code-cache.ts),
// which keeps the code of each command once.
let ran: string | undefined;

/** Called as a command's action starts, with the command's path (`svc data series`). */
export function noteCommandRan(path: string): void {
  ran = path;
}

/** The command this run ran; undefined before one ran (help, a mistake on the command line). */
export function commandRan(): string | undefined {
  return ran;
}
