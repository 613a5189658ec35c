// What one run of the built `svc` loads: every ES module it resolves (a resolve hook), every
// CommonJS file it requires and every built-in module of Node (read at exit), and the npm packages
// inside the dist/ files it loaded (read from their source maps, as dependencies are bundled).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collect, ROOT, SVC } from './harness.js';

export interface Trace {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Files of ours loaded, relative to the project (`bin/svc.cjs`, `dist/cli.js`, `dist/chunks/…`). */
  files: string[];
  /** Node's own modules, by their internal names (`http`, `internal/deps/undici/undici`). */
  builtins: string[];
  /** npm packages bundled into the dist files loaded (`commander`, `chalk` …). */
  packages: string[];
}

/** Runs svc with `args` in `env`, writing its hooks into `dir` (asynchronously: the mock may run in this process). */
export async function traceRun(args: string[], env: Record<string, string>, dir: string): Promise<Trace> {
  const log = join(dir, 'loaded');
  writeFileSync(log, '');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    "import { appendFileSync } from 'node:fs';\n" +
      'export async function resolve(specifier, context, next) {\n' +
      '  const result = await next(specifier, context);\n' +
      "  appendFileSync(process.env.SVC_TRACE_FILE, result.url + '\\n');\n" +
      '  return result;\n' +
      '}\n',
  );
  writeFileSync(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
  writeFileSync(
    join(dir, 'at-exit.cjs'),
    "process.on('exit', () => require('node:fs').appendFileSync(process.env.SVC_TRACE_FILE, [...Object.keys(require.cache), ...process.moduleLoadList].join('\\n') + '\\n'));\n",
  );
  const child = spawn(process.execPath, ['--require', join(dir, 'at-exit.cjs'), '--import', join(dir, 'register.mjs'), SVC, ...args], {
    env: { ...env, SVC_TRACE_FILE: log },
    cwd: ROOT,
  });
  child.stdin.end();
  const { stdout, stderr, code: status } = await collect(child, 20_000);
  const entries = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const files = new Set<string>();
  const builtins = new Set<string>();
  for (const entry of entries) {
    if (entry.startsWith('NativeModule ')) builtins.add(entry.slice('NativeModule '.length));
    if (!entry.startsWith('file://') && !entry.startsWith('/')) continue;
    const absolute = entry.startsWith('file://') ? fileURLToPath(entry) : entry;
    // A package is named by what follows node_modules/, wherever that folder resolves: a clone's
    // node_modules may be a link to a folder outside the project.
    const inPackages = absolute.lastIndexOf('/node_modules/');
    if (inPackages >= 0) {
      files.add(absolute.slice(inPackages + 1));
      continue;
    }
    const path = relative(realpathSync(ROOT), realpathSync(absolute));
    if (!path.startsWith('..')) files.add(path);
  }
  return { status, stdout, stderr, files: [...files].sort(), builtins: [...builtins].sort(), packages: bundledPackages(files) };
}

/** The npm packages named in the source maps of the dist files, and those loaded from node_modules. */
function bundledPackages(files: Set<string>): string[] {
  const packages = new Set<string>();
  for (const file of files) {
    const direct = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    if (direct) packages.add(direct[1]!);
    const map = join(ROOT, `${file}.map`);
    if (!file.startsWith('dist/') || !existsSync(map)) continue;
    for (const source of (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];
      if (name) packages.add(name);
    }
  }
  return [...packages].sort();
}
