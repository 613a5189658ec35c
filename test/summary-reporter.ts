// Ends a run with one plain line that any CI can read:
//   Tests: N passed, N failed, N skipped; files: N failed
// A file fails when one of its tests fails, and also when it errors before its tests run (an import
// that throws, a failing beforeAll): its tests then count as skipped, or are never collected, so
// only the file count shows it. Errors outside any file (vitest's "unhandled errors") are added
// when there are some, and so is a run that was interrupted. Vitest's own exit code is left as it
// is.
import type { Reporter, SerializedError, TestModule, TestRunEndReason } from 'vitest/node';

export function summaryLine(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError> = [],
  reason?: TestRunEndReason,
): string {
  const count = (state: 'passed' | 'failed' | 'skipped') =>
    testModules.reduce((sum, module) => sum + [...module.children.allTests(state)].length, 0);
  const failedFiles = testModules.filter((module) => module.state() === 'failed').length;
  let line = `Tests: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped; files: ${failedFiles} failed`;
  if (unhandledErrors.length > 0) line += `; unhandled errors: ${unhandledErrors.length}`;
  if (reason === 'interrupted') line += '; interrupted';
  return line;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    process.stdout.write(`\n${summaryLine(testModules, unhandledErrors, reason)}\n`);
  }
}
