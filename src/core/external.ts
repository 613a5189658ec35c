// The packages the program does not carry, each loaded when a command first needs it. The build
// makes this module dist/external.cjs, a file of its own beside the program (dist/cli.cjs), which
// the program requires at the first call of one of these: the program is read, and its code cache
// taken in, at every start, and these would be a quarter of it. `open` (it runs a script of its
// own that lies beside it) and undici (only for a proxy) stay in node_modules; jq (`--jq`; 1.3 MB)
// is dist/jq.cjs; the others are bundled into this file: the spinner (ora, on a terminal) and the
// questions (@inquirer, a person at a terminal), and csv-parse's streaming parser (`merchants
// resolve --file`). It is also the one place of the `import()`s: one in the program itself would
// fail, as the launcher compiles the program with V8's code cache (src/launch/code-cache.ts),
// where Node gives `import()` no loader.
export const importOpen = () => import('open');
export const importUndici = () => import('undici');
export const importJq = () => import('jq-wasm');
export const importOra = () => import('ora');
export const importInput = () => import('@inquirer/input');
export const importPassword = () => import('@inquirer/password');
export const importCheckbox = () => import('@inquirer/checkbox');
export const importSearch = () => import('@inquirer/search');
export const importConfirm = () => import('@inquirer/confirm');
export const importCsvParse = () => import('csv-parse');
export const importKeyring = () => import('@napi-rs/keyring');
