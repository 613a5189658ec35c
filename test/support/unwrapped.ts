// Messages on stderr as a person reads them: svc wraps each to the terminal, 80 columns in a pipe,
// and indents the lines it goes on to by two spaces (src/service/report-error.ts).

/** stderr with each message on one line. */
export function unwrapped(stderr: string): string {
  return stderr.replace(/\n {2}(?=\S)/g, ' ');
}
