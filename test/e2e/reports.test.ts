// The report commands through a real process against a real `svc mock`: the built binary, its
// node:http transport and the mock's own HTTP server, with nothing in between. What each command
// sends, prints and refuses, and how it maps every failure, is tested in-process, assertion by
// assertion (test/commands/reports.test.ts, parse.test.ts, statements.test.ts, usage.test.ts); the
// mock's own behaviour (scopes, organisations, the usage counter, failed and processing reports) in
// test/unit/mock-server.test.ts. What stays here needs the process and the real peer:
// - the upload: a multipart body as svc's transport writes it on a socket, read by the mock's
//   multipart parser, whose report then answers a second process (a fake service sees the bytes,
//   not whether a real server parses them);
// - --wait: polling on the real clock while the mock really processes (in-process, waits take no
//   time).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { useWorld } from './harness.js';

const world = useWorld();
let files: string;

beforeAll(() => {
  files = world.tempDir('svc-files-');
});

function file(name: string, content: string | Buffer): string {
  const path = join(files, name);
  writeFileSync(path, content);
  return path;
}

describe('parse', () => {
  const pdf = () => file('statement.pdf', '%PDF-1.4\nAccount Holder: Sita Kumari Thapa\n%%EOF\n');

  it('uploads a PDF as multipart and shows the parsed report', async () => {
    const r = await world.svc(['parse', pdf(), '--bank', 'NABIL']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^status\tcomplete$/m);
    expect(r.stdout).toMatch(/^bank\tNabil Bank \(NABIL\)$/m);
    const id = /^report_id\t(rpt_[0-9a-f]+)$/m.exec(r.stdout)![1]!;
    const [request] = await world.requests();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/parse' });
    expect(request!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    // The full report names no holder; the identity view of the new report gives the file's.
    const identity = await world.svc(['reports', 'identity', id]);
    expect(identity.stdout).toMatch(/^account_holder\tSita Kumari Thapa$/m);
  });

  it('--wait polls until the report is complete', async () => {
    const r = await world.svc(['parse', pdf(), '--wait', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const body = JSON.parse(r.stdout);
    expect(body.status).toBe('complete');
    const paths = (await world.requests()).map((q) => `${q.method} ${q.path}`);
    expect(paths[0]).toBe('POST /v1/parse');
    expect(paths.slice(1).every((p) => p === `GET /v1/reports/${body.report_id}`)).toBe(true);
    expect(paths.length).toBeGreaterThan(1);
  });
});
