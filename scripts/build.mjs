// Bundles src/ into dist/ as CommonJS files, each one file without chunks (Node's ES module loader
// would resolve every chunk, ~1 ms each), each loaded with V8's code cache of it
// (src/launch/code-cache.ts), where Node 20 has no compile cache of its own:
//   - dist/cli-NOUN.cjs, one per noun (reports, data, config, …): the program with that noun's
//     commands alone, the other nouns' register functions doing nothing. The source imports
//     everything statically: a bundle holds only what its noun imports, and the modules of a
//     noun's commands (those whose imports in its index.ts are only the handlers given to
//     app.action) are evaluated when the command runs, not at every start.
//   - dist/cli.cjs, the whole program, for every other command line: help, completion, a mistake.
//   - dist/launch.cjs, which picks a command line's bundle and code cache (src/launch/route.ts) and
//     loads it; it carries the table of nouns and their subcommands, the root's flags and each
//     bundle's hash.
//   - dist/complete.cjs (src/completion/entry.ts) serves `svc __complete` (the completion scripts'
//     questions) without loading the program, as every module loaded costs time at each TAB.
//   - dist/external.cjs (src/core/external.ts): the packages few commands use (the spinner, the
//     questions, csv-parse's streaming parser), required by the program at the first use of one.
//   - dist/jq.cjs, jq compiled to WebAssembly (1.3 MB), loaded only by `--jq`.
//   - dist/bs-calendar.cjs, the table of Bikram Sambat months, loaded only by a run in that calendar.
//   - dist/mock.cjs, the emulator (src/mock/entry.ts), required by the program only when `svc mock`
//     runs: the program is read, and its code cache deserialised, at every start, and the mock
//     would be half of it. The build fails if the program holds any of src/mock but the table of
//     fault names (src/mock/fault-names.ts, which completion reads), or a package kept apart.
// The new dist/ is built beside the old one and swapped in by renaming, so an `svc` started during
// a build never sees half a dist/. Source maps go to build/maps/, never shipped: the startup tests
// read them to name the packages a run evaluated. Then completions/ and man/ are regenerated from
// the command tree.
//
// `node scripts/build.mjs --sea FILE` makes instead the script of svc's single executable (npm run
// release): src/sea.ts with everything it imports in the one file, as a single executable runs one
// script and requires Node's built-in modules alone, and the root help the build prepared (run it
// after the build).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';
import ts from 'typescript';

import { generateDocs } from './generate-docs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
const staging = `${root}/dist.${process.pid}`;
const retired = `${root}/dist.old.${process.pid}`;
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'external',
  define: { __SVC_VERSION__: JSON.stringify(version) },
  // @commander-js/extra-typings is types over commander, whose classes it re-exports as they are
  // (and it makes a program of its own as it loads): the bundle takes them from commander itself.
  alias: { '@commander-js/extra-typings': 'commander' },
  // ASCII only: Node reads an ASCII file into a one-byte string several times faster, and V8 keeps
  // it so. (esbuild escapes strings, not regular expressions: a check below finds the rest.)
  charset: 'ascii',
  logLevel: 'warning',
};

/** `jq-wasm` is dist/jq.cjs, a file of its own beside the program. */
const jqApart = {
  name: 'jq-apart',
  setup(build) {
    build.onResolve({ filter: /^jq-wasm$/ }, () => ({ path: './jq.cjs', external: true }));
  },
};

/**
 * jq-wasm feeds jq its input a byte at a time by copying the rest of it (`slice(1)`), and grows
 * its output a byte at a time by copying all of it: time grows with the square of the size (27 s
 * for half a megabyte), and jq runs synchronously, deaf to Ctrl-C meanwhile. Its runtime also
 * prints its own diagnostics ("Aborted()") on stderr, and gives jq a made-up environment
 * (USER=web_user). These edits make the input a moving view, the outputs buffers that double,
 * leave the diagnostics to the error jq-wasm throws, and give jq no environment at all (`$ENV` is
 * `{}`: the key in SVC_API_KEY is out of an expression's reach). The build fails if jq-wasm's code
 * no longer reads as expected.
 */
const jqLinearIo = {
  name: 'jq-linear-io',
  setup(build) {
    build.onLoad({ filter: /jq-wasm[\\/]dist[\\/]build[\\/]jq\.js$/ }, (args) => {
      let code = readFileSync(args.path, 'utf8');
      const edit = (pattern, replacement, what) => {
        if (!pattern.test(code))
          throw new Error(`jq-wasm: ${what} is not where the build expects it (${args.path})`);
        code = code.replace(pattern, replacement);
      };
      edit(
        /stdinBuffer = stdinBuffer\.slice\(1\);/,
        'stdinBuffer = stdinBuffer.subarray(1);',
        'the input reader',
      );
      for (const name of ['stdoutBuffer', 'stderrBuffer']) {
        const append = new RegExp(
          `const tmp = new Uint8Array\\(${name}\\.length \\+ 1\\);\\s*tmp\\.set\\(${name}, 0\\);\\s*tmp\\[tmp\\.length - 1\\] = charCode;\\s*${name} = tmp;`,
        );
        edit(append, `${name} = svcAppendByte(${name}, charCode);`, `the ${name} writer`);
      }
      edit(
        /(printErr\(message\) \{[^}]*\})\s*console\.error\(message\);/,
        '$1',
        'the diagnostics printer',
      );
      edit(/var env = \{ USER: "web_user"[^}]*\};/, 'var env = {};', 'the made-up environment');
      // A view one longer over a buffer that doubles when full.
      code += `
function svcAppendByte(view, byte) {
  if (view.byteOffset + view.length === view.buffer.byteLength) {
    const grown = new Uint8Array(Math.max(256, view.length * 2));
    grown.set(view);
    view = grown.subarray(0, view.length);
  }
  const longer = new Uint8Array(view.buffer, view.byteOffset, view.length + 1);
  longer[view.length] = byte;
  return longer;
}
`;
      return { contents: code, loader: 'js' };
    });
  },
};

/**
 * A module of src/ built as a file of its own beside the program: the program's imports of it,
 * static or `import()`, become a `require` of that file, made when the importing code first runs
 * (an `import()` left in the program would fail: see src/core/external.ts). `inside`: the folder of
 * the module's own code, whose imports of it stay as they are.
 */
function apart(name, filter, file, inside = undefined) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter }, (args) =>
        args.importer.startsWith(`${root}src/`) && !(inside && args.importer.startsWith(inside))
          ? { path: file, namespace: name }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: name }, () => ({
        contents: `module.exports = require('./${file}');`,
        loader: 'js',
      }));
      build.onResolve({ filter: /.*/, namespace: name }, (args) => ({
        path: args.path,
        external: true,
      }));
    },
  };
}

/**
 * src/core/external.ts is dist/external.cjs: the packages few commands use, and the one place of
 * the `import()`s. Its exports are functions, which the program takes as functions requiring the
 * file at their first call: a static import of it loads nothing at start.
 */
function externalOnUse(names) {
  return {
    name: 'external-on-use',
    setup(build) {
      build.onResolve({ filter: /\/external\.js$/ }, (args) =>
        args.importer.startsWith(`${root}src/`)
          ? { path: 'external', namespace: 'external-on-use' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'external-on-use' }, () => ({
        contents: names
          .map(
            (name) =>
              `export function ${name}(...args) { return require('./external.cjs').${name}(...args); }`,
          )
          .join('\n'),
        loader: 'js',
      }));
      build.onResolve({ filter: /.*/, namespace: 'external-on-use' }, (args) => ({
        path: args.path,
        external: true,
      }));
    },
  };
}

/**
 * The named imports of a module of src/: each module it names (resolved), and the names it takes.
 */
function importsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const imports = new Map();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith('.')) continue;
    const bindings = statement.importClause?.namedBindings;
    const names =
      bindings && ts.isNamedImports(bindings)
        ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text)
        : ['*'];
    const path = fileURLToPath(new URL(specifier.replace(/\.js$/, '.ts'), `file://${file}`));
    imports.set(path, [...(imports.get(path) ?? []), ...names]);
  }
  return { source, imports };
}

/**
 * The modules of a noun's commands: those of which its index.ts imports nothing but the handlers it
 * gives `app.action(…)`. Each, and the names index.ts takes from it.
 */
function handlerModules() {
  const modules = new Map();
  const commands = `${root}src/commands`;
  for (const entry of readdirSync(commands, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const parsed = importsOf(`${commands}/${entry.name}/index.ts`);
    const handlers = new Set();
    const visit = (node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'action' &&
        node.arguments.length === 1 &&
        ts.isIdentifier(node.arguments[0])
      )
        handlers.add(node.arguments[0].text);
      ts.forEachChild(node, visit);
    };
    visit(parsed.source);
    for (const [path, names] of parsed.imports)
      if (names.every((name) => handlers.has(name))) modules.set(path, names);
  }
  return modules;
}

/**
 * The modules of a noun's commands (handlerModules) are evaluated at their first call: index.ts
 * gets functions that require the module then (esbuild makes a required module lazy).
 */
function handlersOnUse(modules) {
  return {
    name: 'handlers-on-use',
    setup(build) {
      build.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (args) => {
        if (args.namespace !== 'file' || !/\/src\/commands\/[\w-]+\/index\.ts$/.test(args.importer))
          return undefined;
        const path = fileURLToPath(
          new URL(args.path.replace(/\.js$/, '.ts'), `file://${args.importer}`),
        );
        return modules.has(path) ? { path, namespace: 'handlers-on-use' } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'handlers-on-use' }, (args) => ({
        contents: modules
          .get(args.path)
          .map(
            (name) =>
              `export function ${name}(...args) { return require(${JSON.stringify(args.path)}).${name}(...args); }`,
          )
          .join('\n'),
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

/**
 * The bundle of one noun: src/main.ts's imports of the other nouns' index.ts become register
 * functions that declare nothing, so the program has that noun's commands alone.
 */
function nounAlone(folder, registers) {
  return {
    name: 'noun-alone',
    setup(build) {
      build.onResolve({ filter: /^\.\/commands\/[\w-]+\/index\.js$/ }, (args) => {
        if (args.importer !== `${root}src/main.ts`) return undefined;
        const path = `${root}src/${args.path.slice(2).replace(/\.js$/, '.ts')}`;
        return path === `${root}src/commands/${folder}/index.ts`
          ? undefined
          : { path, namespace: 'noun-left-out' };
      });
      build.onLoad({ filter: /.*/, namespace: 'noun-left-out' }, (args) => ({
        contents: registers
          .get(args.path)
          .map((name) => `export function ${name}() {}`)
          .join('\n'),
        loader: 'js',
      }));
    },
  };
}

/**
 * src/core/calendar/bikram-sambat.ts, the table of Bikram Sambat months, is dist/bs-calendar.cjs:
 * required only by a run that asks for BS (src/core/calendar/calendar.ts loadBsCalendar).
 */
const bsCalendarApart = apart('bs-calendar-apart', /(^|\/)bikram-sambat\.js$/, 'bs-calendar.cjs');

/**
 * src/mock/entry.ts is dist/mock.cjs, required by `svc mock` (src/commands/mock/mock.ts) once its
 * flags are checked.
 */
const mockApart = apart('mock-apart', /\/mock\/entry\.js$/, 'mock.cjs', `${root}src/mock/`);

/**
 * What of src/mock a bundle other than dist/mock.cjs may hold: the table of fault names, which
 * imports nothing.
 */
const MOCK_SHARED = new Set(['src/mock/fault-names.ts']);

/** The packages kept in dist/external.cjs, which the program must not hold too. */
const PACKAGES_APART = /^node_modules\/(ora|cli-spinners|@inquirer\/[^/]+)\//;

/**
 * Fails the build when `metafile`'s bundle holds any of the emulator beyond MOCK_SHARED, or a
 * package kept apart.
 */
function checkApart(metafile, name) {
  const inputs = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
  const mock = inputs.filter((input) => input.startsWith('src/mock/') && !MOCK_SHARED.has(input));
  if (mock.length > 0)
    throw new Error(
      `${name} holds the emulator (${mock.slice(0, 3).join(', ')}…): import it through src/mock/entry.ts, which is dist/mock.cjs`,
    );
  const packages = inputs.filter((input) => PACKAGES_APART.test(input));
  if (packages.length > 0)
    throw new Error(
      `${name} holds ${packages[0]}: import that package through src/core/external.ts, which is dist/external.cjs`,
    );
}

/**
 * Node's modules that take milliseconds to load and that a run may never use: node:child_process
 * (it brings net sockets and dgram; commander requires it for executable subcommands, which svc has
 * none of), node:crypto (~4 ms: a GET needs none), node:http and node:https (`--help` sends
 * nothing) and node:zlib. Every bundle requires each at the first use of one of its exports,
 * through getters named after them, so the source imports them as any other module. The getters
 * are those of the names src/ imports (node:crypto has 67, every start would define them all); a
 * package gets all of them.
 */
const BUILTINS_ON_USE = ['child_process', 'crypto', 'http', 'https', 'zlib'];
const builtinModule = (name) => createRequire(import.meta.url)(`node:${name}`);

/** For each of BUILTINS_ON_USE, the names src/ imports from it ('*': all of them). */
function builtinNamesInSource() {
  const names = new Map(BUILTINS_ON_USE.map((name) => [name, new Set()]));
  for (const path of readdirSync(`${root}src`, { recursive: true })) {
    if (!path.endsWith('.ts')) continue;
    const file = `${root}src/${path}`;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
      const taken = names.get(statement.moduleSpecifier.text.replace(/^node:/, ''));
      const clause = statement.importClause;
      if (!taken || !clause) continue;
      if (clause.name || (clause.namedBindings && !ts.isNamedImports(clause.namedBindings)))
        taken.add('*');
      else
        for (const element of clause.namedBindings?.elements ?? [])
          if (!element.isTypeOnly) taken.add((element.propertyName ?? element.name).text);
    }
  }
  return names;
}

function builtinsOnUse() {
  const inSource = builtinNamesInSource();
  return {
    name: 'builtins-on-use',
    setup(build) {
      const filter = new RegExp(`^(node:)?(${BUILTINS_ON_USE.join('|')})$`);
      build.onResolve({ filter }, (args) => {
        const name = args.path.replace(/^node:/, '');
        if (args.namespace === 'on-use') return { path: `node:${name}`, external: true };
        const fromSource = args.importer.startsWith(`${root}src/`);
        return { path: fromSource ? name : `${name}:all`, namespace: 'on-use' };
      });
      build.onLoad({ filter: /.*/, namespace: 'on-use' }, (args) => {
        const [name, all] = args.path.split(':');
        const taken = inSource.get(name);
        const names = all || taken.has('*') ? Object.keys(builtinModule(name)) : [...taken];
        return {
          contents: names
            .map(
              (exported) =>
                `Object.defineProperty(exports, ${JSON.stringify(exported)}, { enumerable: true, get: () => require('node:${name}')[${JSON.stringify(exported)}] });`,
            )
            .join('\n'),
          loader: 'js',
        };
      });
    },
  };
}

const seaAt = process.argv.indexOf('--sea');
if (seaAt !== -1) {
  const help = readFileSync(`${root}/dist/help.txt`, 'utf8');
  await build({
    ...common,
    entryPoints: [`${root}/src/sea.ts`],
    define: { ...common.define, __SVC_HELP__: JSON.stringify(help) },
    outfile: process.argv[seaAt + 1],
    // The commands' modules, and child_process, evaluated on use as in the program; jq's edits as
    // dist/jq.cjs.
    plugins: [handlersOnUse(handlerModules()), builtinsOnUse(), jqLinearIo],
    // The keyring's native binary (macOS and Windows only) is required by its name at run time.
    external: ['@napi-rs/*'],
    // `open` finds its own copy of xdg-open through import.meta, which a CommonJS bundle does
    // not have: it then runs the system's xdg-open, as it does wherever it is bundled.
    logOverride: { 'empty-import-meta': 'silent' },
    sourcemap: false,
    minify: true,
  });
  process.exit(0);
}

try {
  // dist/external.cjs first: the program takes its functions by name.
  await build({
    ...common,
    entryPoints: [`${root}/src/core/external.ts`],
    outfile: `${staging}/external.cjs`,
    // `open` finds a script of its own beside its module, undici is loaded only for a proxy, and
    // the keyring's native binary (macOS and Windows only) is required by its name at run time
    // from a package of its own (@napi-rs/keyring-darwin-arm64, ...): they stay in node_modules.
    external: ['open', 'undici', '@napi-rs/*'],
    plugins: [jqApart],
    // Parsed (Node 20: from its text) by every command that needs one of its packages.
    minify: true,
  });
  const external = createRequire(import.meta.url)(`${staging}/external.cjs`);
  const externalFunctions = Object.keys(external).filter(
    (name) => typeof external[name] === 'function',
  );
  const handlers = handlerModules();
  const builtins = builtinsOnUse();
  /** Builds a bundle of the program into dist/NAME.cjs, and returns its content hash. */
  const bundle = async (name, plugins = []) => {
    const file = `${name}.cjs`;
    const result = await build({
      ...common,
      entryPoints: [`${root}/src/cli.ts`],
      outfile: `${staging}/${file}`,
      plugins: [
        ...plugins,
        handlersOnUse(handlers),
        externalOnUse(externalFunctions),
        mockApart,
        bsCalendarApart,
        builtins,
      ],
      // Parsed at every start where no code cache can be used: less text parses faster.
      minify: true,
      metafile: true,
    });
    checkApart(result.metafile, `dist/${file}`);
    const program = readFileSync(`${staging}/${file}`);
    const wide = program.findIndex((byte) => byte > 0x7f);
    if (wide !== -1)
      throw new Error(
        `dist/${file} is not ASCII: ${JSON.stringify(program.subarray(Math.max(0, wide - 40), wide + 10).toString())}; write the character as \\u…`,
      );
    return createHash('sha256').update(program).digest('hex').slice(0, 16);
  };
  const ids = { cli: await bundle('cli') };
  // The nouns, their subcommands and the root's flags, as the whole program declares them.
  const table = spawnSync(
    process.execPath,
    ['-p', `JSON.stringify(require(${JSON.stringify(`${staging}/cli.cjs`)}).launchTable())`],
    { encoding: 'utf8' },
  );
  if (table.status !== 0) throw new Error(`the program's launch table: ${table.stderr}`);
  const { bundles, subcommands, flags } = JSON.parse(table.stdout);
  // A noun's bundle is named by its first name, the folder of its index.ts.
  const registers = importsOf(`${root}src/main.ts`).imports;
  await Promise.all(
    [...new Set(Object.values(bundles))].map(async (folder) => {
      if (!registers.has(`${root}src/commands/${folder}/index.ts`))
        throw new Error(`src/main.ts imports no src/commands/${folder}/index.ts`);
      ids[`cli-${folder}`] = await bundle(`cli-${folder}`, [nounAlone(folder, registers)]);
    }),
  );
  const launchTable = { bundles, subcommands, flags, ids };
  await build({
    ...common,
    entryPoints: [`${root}/src/launch.ts`],
    outfile: `${staging}/launch.cjs`,
    define: { ...common.define, __SVC_BUNDLES__: JSON.stringify(launchTable) },
    // Compiled from its text at every start (it loads the code caches, so it has none): about a
    // third less to parse.
    minify: true,
  });
  const completion = await build({
    ...common,
    entryPoints: [`${root}/src/completion/entry.ts`],
    outfile: `${staging}/complete.cjs`,
    // A dependency it never loads on this path must not be inlined.
    packages: 'external',
    metafile: true,
  });
  checkApart(completion.metafile, 'dist/complete.cjs');
  // Required by a run in the Bikram Sambat calendar only; it imports nothing.
  await build({
    ...common,
    entryPoints: [`${root}/src/core/calendar/bikram-sambat.ts`],
    outfile: `${staging}/bs-calendar.cjs`,
    minify: true,
  });
  // Loaded only by `svc mock`, by plain require (never with the program's code cache).
  await build({
    ...common,
    entryPoints: [`${root}/src/mock/entry.ts`],
    outfile: `${staging}/mock.cjs`,
    minify: true,
  });
  await build({
    ...common,
    entryPoints: ['jq-wasm'],
    outfile: `${staging}/jq.cjs`,
    plugins: [jqLinearIo],
  });
  const maps = `${root}/build/maps`;
  mkdirSync(maps, { recursive: true });
  for (const name of readdirSync(staging).filter((file) => file.endsWith('.map')))
    renameSync(`${staging}/${name}`, `${maps}/${name}`);
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
const help = spawnSync(process.execPath, [`${root}/bin/svc.cjs`, '--help'], {
  encoding: 'utf8',
  env: { ...process.env, NO_COLOR: '1' },
});
if (help.status !== 0) throw new Error(`svc --help failed while building: ${help.stderr}`);
writeFileSync(`${root}/dist/help.txt`, help.stdout);
