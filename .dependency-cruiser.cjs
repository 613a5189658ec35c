// The layers of src/ (CONTRIBUTING.md, "Layers"): each imports its own layer and those on the floors
// below it, never a layer above nor the other layer of its own floor; and no files import each
// other in a circle. Type-only imports count (tsPreCompilationDeps), as do import()s.
// `npm run lint:layers` checks it; `npm run lint` runs it with eslint.
//
// Top down. A floor of two layers lists both: they never import each other.
const FLOORS = [
  [
    {
      name: 'entries',
      path: '^src/(cli|complete|launch|sea)\\.ts$|^src/launch/',
      says: 'the process: argv, signals, the exit code; the code cache',
    },
  ],
  [
    {
      name: 'docs',
      path: '^src/(docs|completion)/',
      says: 'the man page from the command tree; `svc __complete`, values read while you type',
    },
  ],
  [{ name: 'main', path: '^src/main\\.ts$', says: 'the program: the command modules registered' }],
  [{ name: 'commands', path: '^src/commands/', says: 'one folder per noun' }],
  [
    {
      name: 'merchants',
      path: '^src/merchants/',
      says: 'merchants resolve at scale: lookups read, batched, resolved and written',
    },
  ],
  [
    {
      name: 'app',
      path: '^src/app/',
      says: "a command's context: settings to client, io, prompter, cache",
    },
    { name: 'webhooks', path: '^src/webhooks/', says: 'signatures, events, the listener' },
  ],
  [
    { name: 'config', path: '^src/config/', says: 'paths, profiles, the config store' },
    { name: 'api', path: '^src/api/', says: 'HTTP: transport, the client, the endpoint table' },
  ],
  [
    {
      name: 'service',
      path: '^src/service/',
      says: 'what svc knows of the service: error codes, key forms, its variables, replies, states',
    },
  ],
  [{ name: 'core', path: '^src/core/|^src/version\\.ts$', says: 'knows nothing of the service' }],
];

/**
 * svc mock, the emulator, imports nothing of the CLI; of the CLI, only commands and what stands
 * above them load it.
 */
const MOCK = '^src/mock/';
const MOCK_USERS = ['entries', 'docs', 'main', 'commands'];

/** The modules the build starts from (scripts/build.mjs): nothing imports them, by design. */
const ENTRIES =
  '^src/(cli|complete|launch|sea)\\.ts$|^src/mock/entry\\.ts$|^src/completion/entry\\.ts$|\\.d\\.ts$';

const below = (floor) => FLOORS.slice(floor + 1).flat();

const layerRules = FLOORS.flatMap((layers, floor) =>
  layers.map((layer) => {
    const allowed = below(floor);
    const mock = MOCK_USERS.includes(layer.name);
    return {
      name: `layer-${layer.name}`,
      comment: `${layer.name} (${layer.says}) imports only ${[...allowed.map((l) => l.name), ...(mock ? ['mock'] : [])].join(', ') || 'itself'}`,
      severity: 'error',
      from: { path: layer.path },
      to: {
        path: '^src/',
        pathNot: [layer.path, ...allowed.map((l) => l.path), ...(mock ? [MOCK] : [])],
      },
    };
  }),
);

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'mock-apart',
      comment: 'svc mock, the emulator, imports nothing of the CLI',
      severity: 'error',
      from: { path: MOCK },
      to: { path: '^src/', pathNot: MOCK },
    },
    {
      name: 'no-orphans',
      comment: 'a module nothing imports is dead, or an entry the build names (scripts/build.mjs)',
      severity: 'error',
      from: { orphan: true, path: '^src/', pathNot: ENTRIES },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that names no module fails at run time',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      comment: 'files that import each other, type-only imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
