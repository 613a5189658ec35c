// Writes completions/svc.bash, completions/_svc, completions/svc.fish and man/svc.1 from the
// command tree of src/ (run by scripts/build.mjs): the scripts rendered by src/core/completion/,
// the page by src/docs/man.ts. It also writes each help topic (`svc help TOPIC`) as Markdown into
// its reference page under docs/, between the page's markers (src/docs/markdown.ts), leaving the
// rest of the page as written. The tree is read from the real commander program:
// src/docs/documents.ts is bundled with esbuild into a temporary folder and imported.
//
//   node scripts/generate-docs.mjs           write the files that changed
//   node scripts/generate-docs.mjs --check   write nothing; exit 1 when a committed file is stale
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The generated files, path from the package root → content. */
export async function renderDocs() {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // Inside node_modules so that the bundle's bare imports (commander …) resolve from the package.
  const outdir = join(root, 'node_modules', '.cache', 'svc-docs', `${process.pid}-${Date.now()}`);
  try {
    await build({
      entryPoints: [join(root, 'src', 'docs', 'documents.ts')],
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.18',
      packages: 'external',
      define: { __SVC_VERSION__: JSON.stringify(version) },
      logLevel: 'warning',
    });
    const { generatedFiles, generatedBlocks, spliceBlock } = await import(
      pathToFileURL(join(outdir, 'documents.js')).href
    );
    const files = generatedFiles();
    for (const { topic, page, markdown } of generatedBlocks()) {
      const content = files[page] ?? read(join(root, page));
      if (content === undefined)
        throw new Error(`${page} (the page of svc help ${topic}) does not exist`);
      try {
        files[page] = spliceBlock(content, topic, markdown);
      } catch (error) {
        throw new Error(`${page}: ${error.message}`);
      }
    }
    return files;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Writes each file whose content changed (atomically); returns the paths written. */
export async function generateDocs() {
  const written = [];
  for (const [path, content] of Object.entries(await renderDocs())) {
    const file = join(root, path);
    if (read(file) === content) continue;
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, content);
    renameSync(temporary, file);
    written.push(path);
  }
  return written;
}

/** The paths whose committed content differs from what the tree gives now. */
export async function staleDocs() {
  return Object.entries(await renderDocs())
    .filter(([path, content]) => read(join(root, path)) !== content)
    .map(([path]) => path);
}

function read(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--check')) {
    const stale = await staleDocs();
    if (stale.length > 0) {
      console.error(`stale: ${stale.join(', ')} (run npm run build and commit them)`);
      process.exit(1);
    }
  } else {
    for (const path of await generateDocs()) console.log(`wrote ${path}`);
  }
}
