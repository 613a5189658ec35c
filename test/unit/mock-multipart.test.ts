import { describe, expect, it } from 'vitest';

import { multipartBoundary, MultipartError, parseMultipart } from '../../src/mock/multipart.js';

const crlf = (lines: (string | Buffer)[]) =>
  Buffer.concat(
    lines.flatMap((line, i) => [
      typeof line === 'string' ? Buffer.from(line, 'latin1') : line,
      ...(i < lines.length - 1 ? [Buffer.from('\r\n')] : []),
    ]),
  );

describe('multipartBoundary', () => {
  it.each([
    ['multipart/form-data; boundary=abc123', 'abc123'],
    ['Multipart/Form-Data; charset=utf-8; boundary="with space"', 'with space'],
    [
      'multipart/form-data;boundary=----WebKitFormBoundary7MA4YWxk',
      '----WebKitFormBoundary7MA4YWxk',
    ],
  ])('reads %s', (header, boundary) => {
    expect(multipartBoundary(header)).toBe(boundary);
  });

  it.each([
    undefined,
    'application/json',
    'multipart/form-data',
    'multipart/mixed; boundary=x',
    `multipart/form-data; boundary=${'x'.repeat(71)}`,
  ])('refuses %j', (header) => {
    expect(multipartBoundary(header)).toBeNull();
  });
});

describe('parseMultipart', () => {
  it('reads fields and a binary file byte for byte', () => {
    const binary = Buffer.from([
      0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x58, 0x0d, 0x0a,
    ]);
    const body = crlf([
      'preamble to ignore',
      '--XyZ',
      'Content-Disposition: form-data; name="file"; filename="my \\"jan\\" statement.pdf"',
      'Content-Type: application/pdf',
      '',
      binary,
      '--XyZ',
      'Content-Disposition: form-data; name="bank"',
      '',
      'NABIL',
      '--XyZ--',
      '',
    ]);
    const parts = parseMultipart(body, 'XyZ');
    expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ['file', 'my "jan" statement.pdf', 'application/pdf'],
      ['bank', null, null],
    ]);
    expect(parts[0]!.data.equals(binary)).toBe(true);
    expect(parts[1]!.data.toString()).toBe('NABIL');
  });

  it('reads what fetch and FormData send', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\r\n--\r\n')]), 'a%22b.pdf');
    form.append('async', 'true');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const boundary = multipartBoundary(request.headers.get('content-type') ?? undefined)!;
    const parts = parseMultipart(Buffer.from(await request.arrayBuffer()), boundary);
    expect(parts.map((p) => p.name)).toEqual(['file', 'async']);
    expect(parts[0]!.data.toString('latin1')).toBe('%PDF-1.4\r\n--\r\n');
    expect(parts[1]!.data.toString()).toBe('true');
  });

  it('accepts an empty form', () => {
    expect(parseMultipart(Buffer.from('--b--\r\n'), 'b')).toEqual([]);
  });

  it.each([
    ['no boundary at all', 'hello'],
    ['an unterminated part', '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\nvalue'],
    ['headers that never end', '--b\r\nContent-Disposition: form-data; name="x"\r\n'],
    ['a part without a name', '--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--'],
    ['garbage after a boundary', '--bjunk\r\n\r\n--b--'],
  ])('refuses %s', (_label, body) => {
    expect(() => parseMultipart(Buffer.from(body), 'b')).toThrow(MultipartError);
  });
});
