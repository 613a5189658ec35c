import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

// Code run from src/ in the tests carries the version the bundler gives the built svc.
const { version } = JSON.parse(
  readFileSync(new URL('./package.json', import.meta.url), 'utf8'),
) as { version: string };

// Three projects, each with a script of its own (`npm run test:unit`, `test:commands`, `test:e2e`);
// `vitest run` runs them all. The end-to-end tests spawn the built svc, its servers and shells, so
// they get longer bounds than the in-process ones.
export default defineConfig({
  define: { __SVC_VERSION__: JSON.stringify(version) },
  // `--jq` runs the jq that ships, dist/jq.cjs: the build mends how jq-wasm passes jq its input and
  // output (scripts/build.mjs, jqLinearIo). Node loads it as it is, as the built svc does.
  resolve: { alias: { 'jq-wasm': fileURLToPath(new URL('./dist/jq.cjs', import.meta.url)) } },
  test: {
    server: { deps: { external: [/\/dist\/jq\.cjs$/] } },
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'commands',
          include: ['test/commands/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
