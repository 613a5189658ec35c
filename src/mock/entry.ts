// The mock's entry: what `svc mock` (src/commands/mock/mock.ts) takes of the emulator. The build
// makes it dist/mock.cjs, a bundle of its own beside the program, which the program requires only
// when `svc mock` runs: no other command parses or compiles the emulator (a third of the source).
// Tests import the emulator's modules directly.
export { mockKeys, startMockServer, type KeptKeys, type MockKey } from './server.js';
export { FAULT_PRESETS } from './fault-presets.js';
