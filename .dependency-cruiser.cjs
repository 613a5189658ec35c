// The layers of src/ (README, Development): each imports its own layer and those on the floors
// below it, never a layer above nor the other layer of its own floor; and no files import each
// other in a circle. Type-only imports count (tsPreCompilationDeps), as do import()s.
// `npm run lint:layers` checks it; `npm run lint` runs it with eslint.
//
// Top down. A floor of two layers lists both: they never import each other.
const FLOORS = [
  [{ name: 'entries', path: '^src/(cli|complete|launch)\\.ts$|^src/launch/', says: 'the process: argv, signals, the exit code; the code cache' }],
  [{ name: 'docs', path: '^src/(docs|completion)/', says: 'the man page and completion, generated from the command tree' }],
  [{ name: 'main', path: '^src/main\\.ts$', says: 'the program: the command modules registered' }],
  [{ name: 'commands', path: '^src/commands/', says: 'one folder per noun' }],
  [
    { name: 'app', path: '^src/app/', says: "a command's context: settings to client, io, prompter, cache" },
    { name: 'webhooks', path: '^src/webhooks/', says: 'signatures, events, the listener' },
  ],
  [
    { name: 'config', path: '^src/config/', says: 'paths, profiles, the config store' },
    { name: 'api', path: '^src/api/', says: 'HTTP: transport, the client, the endpoint table' },
  ],
  [{ name: 'core', path: '^src/core/|^src/version\\.ts$', says: 'knows nothing of the service' }],
];

/** svc mock, the emulator, imports nothing of the CLI; of the CLI, only commands and what stands above them load it. */
const MOCK = '^src/mock/';
const MOCK_USERS = ['entries', 'docs', 'main', 'commands'];

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
      to: { path: '^src/', pathNot: [layer.path, ...allowed.map((l) => l.path), ...(mock ? [MOCK] : [])] },
    };
  }),
);

// Issue 26 item 7 (completion in one place) takes the docs <-> commands <-> completion circle
// apart on its own branch: until it lands, what crosses there is reported as a warning.
const COMPLETION_COMMANDS = '^src/commands/(completion|help)/';
const COMPLETION_AREA = `^src/(docs|completion)/|${COMPLETION_COMMANDS}`;

module.exports = {
  forbidden: [
    ...layerRules.flatMap((rule) =>
      rule.name === 'layer-commands'
        ? [
            { ...rule, from: { path: rule.from.path, pathNot: COMPLETION_COMMANDS } },
            { ...rule, name: 'layer-commands-completion-area', comment: `${rule.comment} (issue 26 item 7)`, severity: 'warn', from: { path: COMPLETION_COMMANDS } },
          ]
        : [rule],
    ),
    {
      name: 'mock-apart',
      comment: 'svc mock, the emulator, imports nothing of the CLI',
      severity: 'error',
      from: { path: MOCK },
      to: { path: '^src/', pathNot: MOCK },
    },
    {
      name: 'no-circular',
      comment: 'files that import each other, type-only imports included',
      severity: 'error',
      from: { path: '^src/', pathNot: COMPLETION_AREA },
      to: { circular: true },
    },
    {
      name: 'no-circular-completion-area',
      comment: 'files of the completion area that import each other (issue 26 item 7)',
      severity: 'warn',
      from: { path: COMPLETION_AREA },
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
