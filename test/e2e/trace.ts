// What one run of the built `svc` loads: every ES module it resolves (a resolve hook), every
// CommonJS file it requires and every built-in module of Node (read at exit), and the npm packages
// whose code it ran. Dependencies are bundled, and a dist/ file holds many, evaluated only when
// used: V8's coverage of the run says which functions ran, and the build's source maps
// (build/maps/) which package each came from.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import Module, { SourceMap } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { collect, ROOT, SVC } from './harness.js';

export interface Trace {
  status: number | null;
  stdout: string;
  stderr: string;
  /**
   * Files of ours loaded, relative to the project (`bin/svc.cjs`, `dist/launch.cjs`, `dist/cli.cjs`
   * …).
   */
  files: string[];
  /** Node's own modules, by their internal names (`http`, `internal/deps/undici/undici`). */
  builtins: string[];
  /** npm packages bundled into the dist files loaded (`commander`, `chalk` …). */
  packages: string[];
}

/**
 * Runs svc with `args` in `env`, writing its hooks into `dir` (asynchronously: the mock may run in
 * this process); its stdout is a pipe, or /dev/null with `stdout: 'null'`.
 */
export async function traceRun(
  args: string[],
  env: Record<string, string>,
  dir: string,
  { stdout: into = 'pipe' }: { stdout?: 'pipe' | 'null' } = {},
): Promise<Trace> {
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
  writeFileSync(
    join(dir, 'register.mjs'),
    "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
  );
  writeFileSync(
    join(dir, 'at-exit.cjs'),
    "process.on('exit', () => require('node:fs').appendFileSync(process.env.SVC_TRACE_FILE, [...Object.keys(require.cache), ...process.moduleLoadList].join('\\n') + '\\n'));\n",
  );
  const coverage = join(dir, 'coverage');
  mkdirSync(coverage, { recursive: true });
  const command = [
    process.execPath,
    '--require',
    join(dir, 'at-exit.cjs'),
    '--import',
    join(dir, 'register.mjs'),
    SVC,
    ...args,
  ];
  const [file, ...argv] =
    into === 'null' ? ['sh', '-c', 'exec "$@" >/dev/null', 'sh', ...command] : command;
  const child = spawn(file!, argv, {
    env: { ...env, SVC_TRACE_FILE: log, NODE_V8_COVERAGE: coverage },
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
  return {
    status,
    stdout,
    stderr,
    files: [...files].sort(),
    builtins: [...builtins].sort(),
    packages: packagesRun(files, coverage),
  };
}

interface ScriptCoverage {
  url: string;
  functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[];
}

/** The npm packages loaded from node_modules, and those bundled into dist/ whose functions ran. */
function packagesRun(files: Set<string>, coverageDir: string): string[] {
  const packages = new Set<string>();
  for (const file of files) {
    const direct = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    if (direct) packages.add(direct[1]!);
  }
  for (const name of readdirSync(coverageDir)) {
    const { result } = JSON.parse(readFileSync(join(coverageDir, name), 'utf8')) as {
      result: ScriptCoverage[];
    };
    for (const script of result) {
      const path = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
      const file = relative(ROOT, path);
      const map = join(ROOT, 'build', 'maps', `${file.slice('dist/'.length)}.map`);
      if (!file.startsWith('dist/') || !existsSync(map)) continue;
      for (const name of packagesOf(
        script,
        readFileSync(path, 'utf8'),
        new SourceMap(JSON.parse(readFileSync(map, 'utf8'))),
      ))
        packages.add(name);
    }
  }
  return [...packages].sort();
}

/** The packages of the functions of `script` that ran, found through its source map. */
function packagesOf(script: ScriptCoverage, source: string, map: SourceMap): Set<string> {
  // The launcher compiles the program in CommonJS's wrapper (its code cache needs a whole script):
  // offsets then count the wrapper's text too. The first range is the whole script's.
  const scriptLength = script.functions[0]?.ranges[0]?.endOffset ?? 0;
  const shift =
    scriptLength > source.length
      ? (Module as unknown as { wrapper: string[] }).wrapper[0]!.length
      : 0;
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1))
    lineStarts.push(i + 1);
  const packages = new Set<string>();
  for (const fn of script.functions) {
    const range = fn.ranges[0];
    if (!range || range.count === 0) continue;
    const offset = range.startOffset - shift;
    let line = lineStarts.length - 1;
    while (line > 0 && lineStarts[line]! > offset) line--;
    const original = (
      map.findEntry(line, offset - lineStarts[line]!) as { originalSource?: string }
    ).originalSource;
    const name = original && /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(original)?.[1];
    if (name) packages.add(name);
  }
  return packages;
}
