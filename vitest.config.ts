import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Code run from src/ in the tests carries the version the bundler gives the built svc.
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __SVC_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
