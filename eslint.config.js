// eslint with typescript-eslint's type-aware rules (recommendedTypeChecked). The layers of src/
// and its circles are dependency-cruiser's (.dependency-cruiser.cjs); the layout is prettier's.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'dist.*/', 'build/', 'coverage/', 'completions/', 'man/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      // Imports in one order everywhere (packages, then the project's by path), so a reader finds
      // one at a glance and a merge does not fight over where a new one goes.
      'simple-import-sort/imports': 'error',
      // A terminal program: the code sanitises text from the service, so its patterns match control
      // characters and escape sequences on purpose (format.ts printable, csv.ts, fit.ts).
      'no-control-regex': 'off',
      // Every command action and every lazy loader must return a promise (App.action); `async` is
      // how the code says so, whether or not the body awaits.
      '@typescript-eslint/require-await': 'off',
      // `_name` is how the code marks what it takes and does not use, as tsc's noUnused* read it.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // State a closure reads is declared with the rest of its state and set once it is known.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read replies and files through JSON.parse (any) and let the expectations check the
    // shape: typing each of those values, over 1,300 places, would restate what the assertions say.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Their helpers write the JSON scalars they are given as text; an object that reached one
      // would show as [object Object] in the failed expectation.
      '@typescript-eslint/no-base-to-string': 'off',
      // Their patterns match aligned output, its spaces written as a terminal shows them.
      'no-regex-spaces': 'off',
    },
  },
  {
    // Plain JavaScript (scripts, benchmarks, the launcher, configs): outside tsconfig, so no types.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'Buffer',
          'URL',
          'performance',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'AbortController',
          'TextDecoder',
          'TextEncoder',
          'fetch',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // CommonJS: the launcher bin/svc.cjs (it loads dist/ with require, the fastest start) and the
    // dependency-cruiser config.
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
