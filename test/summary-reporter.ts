// Ends a run with one plain line, `Tests: N passed, N failed, N skipped`, that any CI can read.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = (state: 'passed' | 'failed' | 'skipped') =>
      testModules.reduce((sum, module) => sum + [...module.children.allTests(state)].length, 0);
    process.stdout.write(`\nTests: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n`);
  }
}
