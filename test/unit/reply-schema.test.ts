// Replies read through their zod schemas (src/api/replies/): a schema requires only the structure
// a command walks, lets every other field through, and fails exit 10 naming the field and its type.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { StatementsReply } from '../../src/api/replies/statements.js';
import { UsageReply } from '../../src/api/replies/usage.js';
import { UnexpectedReplyError } from '../../src/core/errors.js';
import { ExactNumber } from '../../src/core/json/exact-number.js';
import { ReplyReading } from '../../src/core/reading.js';
import {
  either,
  field,
  list,
  loose,
  optional,
  readReply,
  record,
  text,
} from '../../src/core/reply-schema.js';

const reading = (what = 'GET /v1/x') => new ReplyReading(what);

describe('readReply', () => {
  it('lets a documented reply with fields the documents never showed through, as received', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.dictionary(fc.string(), fc.jsonValue())),
        (extra, items) => {
          const body = { ...extra, statements: items };
          const r = reading();
          expect(readReply(r, StatementsReply, body)).toBe(body);
        },
      ),
    );
  });

  it('passes a reply that lacks documented optional fields, one --debug line each, in the order declared', () => {
    const r = reading('GET /v1/usage');
    readReply(r, UsageReply, { plan: 'growth', used: null });
    expect(r.debugLines()).toEqual(
      ['quota', 'used', 'remaining', 'period', 'resets_at'].map(
        (f) => `debug: GET /v1/usage: the reply has no documented field "${f}"`,
      ),
    );
  });

  it('never requires a reply read field by field to be an object', () => {
    for (const body of [[1], 'x', 7, null]) {
      const r = reading('GET /v1/usage');
      expect(readReply(r, UsageReply, body)).toBe(body);
      expect(r.lacking).toHaveLength(6);
    }
  });

  it('reads any item of a documented list, an object or not, noting its lacking fields once', () => {
    const r = reading('GET /v1/statements');
    const reply = readReply(r, StatementsReply, {
      statements: [{ status: 'issued' }, 7, null, 'x'],
    });
    expect(reply.statements.map((s) => s?.status)).toEqual([
      'issued',
      undefined,
      undefined,
      undefined,
    ]);
    expect(r.lacking).toEqual([
      'statements[].content_hash',
      'statements[].verify_url',
      'statements[].status',
    ]);
  });

  it.each([
    [{ statements: {} }, '"statements" should be a list, but it is an object'],
    [{ statements: null }, '"statements" should be a list, but it is missing'],
    [{}, '"statements" should be a list, but it is missing'],
    [[], 'the body should be an object, but it is a list'],
    [null, 'the body should be an object, but it is null'],
    [new ExactNumber('1.10'), 'the body should be an object, but it is a number'],
  ])(
    'fails exit 10 where the structure to walk is missing or of the wrong type: %j',
    (body, message) => {
      const failing = () => readReply(reading('GET /v1/statements'), StatementsReply, body);
      expect(failing).toThrow(UnexpectedReplyError);
      expect(failing).toThrow(`unexpected reply to GET /v1/statements: ${message}`);
    },
  );

  it('names the path of a nested part, and reads either documented form', () => {
    const schema = record({
      data: either(list(record({ id: text() })), record({ id: text() })),
      period: field('period', 'statement_period'),
      extra: optional(record({ note: field() })),
    });
    expect(() => readReply(reading(), schema, { data: [{ id: 5 }] })).toThrow(
      '"data[].id" should be a text, but it is a number',
    );
    expect(() => readReply(reading(), schema, { data: [{ id: '' }] })).toThrow(
      '"data[].id" should be a text, but it is a text',
    );
    const r = reading();
    readReply(r, schema, { data: { id: 'a' }, statement_period: '2026-05', extra: {} });
    expect(r.lacking).toEqual(['extra.note']);
    const items = reading();
    readReply(items, record({ rows: list(loose({ a: field() })) }), { rows: [{}] });
    expect(items.lacking).toEqual(['rows[].a']);
  });
});
