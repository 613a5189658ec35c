// `npm run bench`: builds svc, then runs every bench/*.mjs in turn (arguments are passed on to
// each). Exits non-zero when a benchmark does (a missed target, or a failure).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const benches = readdirSync(join(root, 'bench'))
  .filter((name) => name.endsWith('.mjs'))
  .sort();
let failed = 0;
for (const name of benches) {
  console.log(`\n# bench/${name}`);
  const run = spawnSync(process.execPath, [join(root, 'bench', name), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    failed++;
    console.log(`bench/${name} exited ${run.status ?? run.signal}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
