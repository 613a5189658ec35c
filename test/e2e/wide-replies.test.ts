// Ctrl-C and `kill` during the output of a big reply: the built svc, in a real process, against a
// minimal server answering 30,000 rows that each bring a field of their own. The table is written a
// piece at a time, so a signal sent once it has begun ends it with the code a shell gives that
// signal. The limits below only detect a hang: svc ends within a fraction of a second.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { baseEnv, STACK_LINE, SVC } from './harness.js';

const ID = 'rpt_9f2c41d07ab35e18';
const KEY = `svc_sk_test_${'0123456789abcdef'.repeat(2)}`;
const ROWS = 30_000;
/**
 * Longer than svc takes to write its first piece and, after the signal, to end: a hang detector.
 */
const FIRST_OUTPUT_MS = 20_000;
const END_AFTER_SIGNAL_MS = 5_000;

const transactions = Array.from({ length: ROWS }, (_, i) => ({
  id: `txn_${i}`,
  date: '2026-01-01',
  description: `PAYMENT ${i}`,
  debit: 100.5,
  balance: i,
  [`note_${i}`]: 'x',
}));
const body = Buffer.from(JSON.stringify({ count: ROWS, transactions }));

let server: Server;
let dir = '';
let baseUrl = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-e2e-wide-'));
  server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)(
  '%s while the table of 30,000 rows that each bring a field of their own is written',
  (signal, exitCode) => {
    it(
      `ends svc with exit ${exitCode}`,
      async () => {
        const env = { ...baseEnv(dir), SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY };
        const child = spawn(process.execPath, [SVC, 'reports', 'transactions', ID], {
          env,
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        const begun = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
          (resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })),
        );
        const hang = (ms: number, what: string) =>
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), ms).unref());
        try {
          await Promise.race([
            begun,
            hang(FIRST_OUTPUT_MS, `no output within ${FIRST_OUTPUT_MS} ms`),
          ]);
          child.kill(signal);
          expect(
            await Promise.race([
              closed,
              hang(END_AFTER_SIGNAL_MS, `still running ${END_AFTER_SIGNAL_MS} ms after ${signal}`),
            ]),
          ).toEqual({ code: exitCode, signal: null });
        } finally {
          child.kill('SIGKILL');
        }
        // Some rows were written, not all of them; no stack trace.
        expect(stdout.split('\n')[0]).toMatch(/^DATE\tDESCRIPTION\t/);
        expect(stdout).not.toContain(`txn_${ROWS - 1}\t`);
        expect(stderr).toMatch(/^error: interrupted$/m);
        expect(stderr).not.toMatch(STACK_LINE);
      },
      FIRST_OUTPUT_MS + END_AFTER_SIGNAL_MS + 5_000,
    );
  },
);
