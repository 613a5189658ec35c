import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Code run from src/ in the tests carries the version the bundler gives the built svc.
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __SVC_VERSION__: JSON.stringify(version) },
  // `--jq` runs the jq that ships, dist/jq.cjs: the build mends how jq-wasm passes jq its input and
  // output (scripts/build.mjs, jqLinearIo). Node loads it as it is, as the built svc does.
  resolve: { alias: { 'jq-wasm': fileURLToPath(new URL('./dist/jq.cjs', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    server: { deps: { external: [/\/dist\/jq\.cjs$/] } },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
