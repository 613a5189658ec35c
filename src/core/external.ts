// The packages svc does not bundle, each loaded when a command first needs it: `open` (it runs a
// script of its own that lies beside it), undici (only for a proxy) and jq (`--jq`; 1.3 MB that
// the build keeps in dist/jq.cjs). The build makes this module a file of its own, required by the
// program: an `import()` in the program itself would fail, as the launcher compiles the program
// with V8's code cache (src/launch/code-cache.ts), where Node gives `import()` no loader.
export const importOpen = () => import('open');
export const importUndici = () => import('undici');
export const importJq = () => import('jq-wasm');
