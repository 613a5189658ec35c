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
import { createRequire } from 'node:module';

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

/**
 * The native binary of @napi-rs/keyring for this machine, from its package of its own: svc
 * depends on those of macOS and Windows alone (optional dependencies npm installs only there), so
 * Linux, whose keyring svc reaches in TypeScript, installs no native code. Each package's main
 * file is the addon, whose exports are @napi-rs/keyring's.
 */
export const KEYRING_BINDINGS: Readonly<Record<string, string>> = {
  'darwin-arm64': '@napi-rs/keyring-darwin-arm64',
  'darwin-x64': '@napi-rs/keyring-darwin-x64',
  'win32-x64': '@napi-rs/keyring-win32-x64-msvc',
  'win32-arm64': '@napi-rs/keyring-win32-arm64-msvc',
  'win32-ia32': '@napi-rs/keyring-win32-ia32-msvc',
};

export function importKeyring(
  platform: string = process.platform,
  arch: string = process.arch,
): Promise<typeof import('@napi-rs/keyring')> {
  const name = KEYRING_BINDINGS[`${platform}-${arch}`];
  if (name === undefined)
    return Promise.reject(new Error(`no keyring binding for ${platform}-${arch}`));
  // Required (an addon is no ES module) from this file, dist/external.cjs, a CommonJS file: Node
  // finds the package in svc's node_modules. The name is made at run time, so nothing is bundled.
  return Promise.resolve().then(
    () => createRequire(__filename)(name) as typeof import('@napi-rs/keyring'),
  );
}
