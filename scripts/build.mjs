// Bundles src/ into dist/ with one chunk per lazily imported command, so `svc --help` loads
// only the command tree. The new dist/ is built beside the old
// one and swapped in by renaming, so an `svc` started during a build never sees half a dist/.
// A second entry, dist/complete.cjs, serves `svc __complete` (the completion scripts' questions)
// without loading the program: one CommonJS file with no chunks, as every module loaded (and the
// ES module loader itself) costs time at each TAB. Then completions/ and man/ are regenerated from the command tree.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateDocs } from './generate-docs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Dependencies are bundled too (fewer files to find and read at each start); CommonJS ones need
// a require. `open` finds a script of its own beside its module, and undici is loaded only for
// a proxy: both stay in node_modules.
const external = ['open', 'undici'];
const banner = { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" };
const { version } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
const staging = `${root}/dist.${process.pid}`;
const retired = `${root}/dist.old.${process.pid}`;

try {
  await build({
    entryPoints: [`${root}/src/cli.ts`],
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    external,
    banner,
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    // Node 20 has no compile cache: every start parses what it loads, and less text parses faster.
    minify: true,
    define: { __SVC_VERSION__: JSON.stringify(version) },
    logLevel: 'warning',
  });
  await build({
    entryPoints: [`${root}/src/complete.ts`],
    outdir: staging,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
    // One file without chunks, so a dependency it never loads on this path must not be inlined.
    packages: 'external',
    sourcemap: 'linked',
    define: { __SVC_VERSION__: JSON.stringify(version) },
    logLevel: 'warning',
  });
  try {
    renameSync(`${root}/dist`, retired);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  renameSync(staging, `${root}/dist`);
} finally {
  rmSync(staging, { recursive: true, force: true });
  rmSync(retired, { recursive: true, force: true });
}

for (const path of await generateDocs()) console.log(`wrote ${path}`);

// `svc --help`, prepared: the launcher prints it without loading the program. It is made by the
// program itself (dist/help.txt does not exist yet, so this run takes the full path).
const help = spawnSync(process.execPath, [`${root}/bin/svc.cjs`, '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
if (help.status !== 0) throw new Error(`svc --help failed while building: ${help.stderr}`);
writeFileSync(`${root}/dist/help.txt`, help.stdout);
