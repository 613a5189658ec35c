// Measurement of the D-Bus reader (a script, not a test): a 1 MiB message whose body is an array of
// structs nested `--depth` deep (58 by default, as a hostile bus could send), decoded as svc
// decodes a reply (decodeMessage, then bodyOf). Prints the CPU seconds and the peak resident memory
// of a process that does only that; the reader's own bound refusing the message counts as done.
//
//   node bench/dbus-decoding.mjs [--depth 58]
//
// Target: at most 1 s of CPU and 150 MB of peak RSS, whatever the depth (a reader that parses a
// signature more than once, or does not cap nesting and containers, takes seconds at 58 deep). Exit
// code 1 when a target is missed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const DEPTH = Number(args.depth ?? 58);

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-dbus-'));
const reader = join(dir, 'dbus.mjs');
await build({
  entryPoints: [join(ROOT, 'src', 'config', 'keyring', 'dbus.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: reader,
  logLevel: 'error',
});

// The child builds the message by hand (svc's writer may refuse its depth), then decodes it.
const child = `
import { decodeMessage, bodyOf } from ${JSON.stringify(reader)};
const depth = ${DEPTH};
const signature = 'a' + '('.repeat(depth) + 'y' + ')'.repeat(depth);
const size = 1024 * 1024 - 256;
// Header: l, return (2), flags, version 1, body length, serial, fields: reply serial and signature.
const fields = Buffer.alloc(8 + 4 + 1 + signature.length + 1);
fields.set([5, 1, 0x75, 0], 0); fields.writeUInt32LE(1, 4);
fields.set([8, 1, 0x67, 0, signature.length], 8); fields.write(signature, 13, 'latin1');
const head = Buffer.alloc(16);
head.set([0x6c, 2, 0, 1], 0); head.writeUInt32LE(2, 8); head.writeUInt32LE(fields.length, 12);
const unpadded = Buffer.concat([head, fields]);
const header = Buffer.concat([unpadded, Buffer.alloc((8 - (unpadded.length % 8)) % 8)]);
// Body: the array's length, padding to 8, then one 8-byte element (a byte and its padding) after
// another.
const elements = Math.floor((size - header.length - 8) / 8);
const body = Buffer.alloc(8 + elements * 8);
body.writeUInt32LE(elements * 8 - 7, 0);
for (let i = 0; i < elements; i++) body[8 + i * 8] = i & 0xff;
header.writeUInt32LE(body.length - 7, 4);
const message = Buffer.concat([header, body.subarray(0, body.length - 7)]);
const cpu = process.cpuUsage();
let outcome;
try {
  const decoded = decodeMessage(message);
  const [items] = bodyOf(decoded.message);
  outcome = items.length + ' structs read';
} catch (error) {
  outcome = 'refused: ' + error.message;
}
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ bytes: message.length, depth, outcome, cpuSeconds: (used.user + used.system) / 1e6, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
`;
const run = spawnSync(process.execPath, ['--input-type=module', '-e', child], {
  encoding: 'utf8',
  maxBuffer: 1 << 20,
});
rmSync(dir, { recursive: true, force: true });
if (run.status !== 0) {
  console.error(run.stderr);
  process.exit(1);
}
const figures = JSON.parse(run.stdout);
const missed = figures.cpuSeconds > 1 || figures.maxRssMB > 150;
console.log(
  `${figures.bytes} bytes, structs ${figures.depth} deep: ${figures.outcome}; ${figures.cpuSeconds.toFixed(2)} s of CPU, peak RSS ${figures.maxRssMB.toFixed(0)} MB`,
);
if (missed) process.exit(1);
