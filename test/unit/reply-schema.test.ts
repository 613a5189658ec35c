// Replies read through their zod schemas (src/api/replies/): a schema requires only the structure
// a command walks, lets every other field through, and fails exit 10 naming the field and its type.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  any,
  boolean,
  decimal,
  either,
  list,
  listAsReceived,
  listOf,
  named,
  number,
  object,
  optional,
  readReply,
  received,
  record,
  requiredText as text,
  scalar,
  string,
  text as asText,
  texts,
  unread,
} from '../../src/api/replies/schema.js';
import { StatementRecords, StatementsReply } from '../../src/api/replies/statements.js';
import { UsageReply } from '../../src/api/replies/usage.js';
import { UnexpectedReplyError } from '../../src/core/errors.js';
import { ExactNumber } from '../../src/core/json/exact-number.js';
import { ReplyReading } from '../../src/service/reading.js';

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
          expect(received(readReply(r, StatementRecords, body))).toBe(body);
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

  it('never requires a reply read field by field to be an object: it reads as absent', () => {
    for (const body of [[1], 'x', 7, null]) {
      const r = reading('GET /v1/usage');
      expect(readReply(r, UsageReply, body)).toBeUndefined();
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
      period: named(any(), 'period', 'statement_period'),
      extra: optional(record({ note: any() })),
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
    readReply(items, record({ rows: list(object({ a: any() })) }), { rows: [{}] });
    expect(items.lacking).toEqual(['rows[].a']);
  });
});

describe('typed fields', () => {
  const Reply = object({
    name: string(),
    label: asText(),
    count: number(),
    amount: decimal(),
    ok: boolean(),
    period: named(asText(), 'period', 'statement_period'),
    part: object({ a: number() }),
    items: listOf(object({ b: string() })),
  });

  it('reads each field of its type, as textOf, numberOf and pick did', () => {
    const amount = new ExactNumber('125000.50');
    const read = readReply(reading(), Reply, {
      name: 'x',
      label: new ExactNumber('1.10'),
      count: ' 12450.30 ',
      amount,
      ok: false,
      period: null,
      statement_period: 2026,
      part: { a: 3, z: [1] },
      items: [{ b: 'y', c: 1 }, 7, null],
      extra: { kept: true },
    });
    expect(read).toEqual({
      name: 'x',
      label: '1.10',
      count: 12450.3,
      amount,
      ok: false,
      period: '2026',
      statement_period: 2026,
      part: { a: 3, z: [1] },
      items: [{ b: 'y', c: 1 }, undefined, undefined],
      extra: { kept: true },
    });
    expect(readReply(reading(), Reply, { amount: '12450.30', label: true })).toMatchObject({
      amount: new ExactNumber('12450.30'),
      label: 'true',
    });
  });

  it('reads a field of another type as absent, and leaves it to the generic view as received', () => {
    const body = {
      name: 5,
      label: {},
      count: 'twelve',
      amount: new ExactNumber('1e400'),
      ok: 'yes',
      part: [],
      items: {},
      extra: 1,
    };
    const r = reading();
    const read = readReply(r, Reply, body);
    expect(Object.values(read ?? {}).filter((v) => v !== undefined)).toEqual([1]);
    expect(r.lacking).toEqual(['period', 'part.a']);
    expect(unread(Reply, body, read)).toEqual(body);
    expect(
      unread(Reply, { name: 'x', extra: 1 }, readReply(reading(), Reply, { name: 'x' })),
    ).toEqual({ extra: 1 });
  });

  it('notes every documented field of an absent object, and of its items', () => {
    const r = reading();
    readReply(r, Reply, { items: [{}], name: null });
    expect(r.lacking).toEqual([
      'name',
      'label',
      'count',
      'amount',
      'ok',
      'period',
      'part',
      'part.a',
      'items[].b',
    ]);
  });

  it('reads any JSON value without failing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        readReply(reading(), Reply, body);
        readReply(reading(), Reply, { name: body, part: body, items: [body] });
      }),
    );
  });
});

describe('reading as received', () => {
  it('links each object read to the object it came from, a field named __proto__ included', () => {
    const body = JSON.parse('{"part": {"a": 1, "__proto__": {"x": 1}}, "rows": [{"b": "y"}]}');
    const Reply = object({ part: object({ a: number() }), rows: listOf(object({ b: string() })) });
    const read = readReply(reading(), Reply, body);
    expect(received(read)).toBe(body);
    expect(received(read?.part)).toBe(body.part);
    expect(received(read?.rows?.[0])).toBe(body.rows[0]);
    expect(received(undefined)).toBeUndefined();
  });

  it('keeps a list read as received the very list, and fails as a list would', () => {
    const body = { items: [1, 'x', null] };
    const Reply = record({ items: listAsReceived() });
    expect(readReply(reading(), Reply, body).items).toBe(body.items);
    expect(() => readReply(reading('GET /v1/x'), Reply, { items: {} })).toThrow(
      '"items" should be a list, but it is an object',
    );
  });

  it('reads texts from a list or one text, and a scalar of any kind', () => {
    const Reply = object({ reasons: texts(), verdict: scalar() });
    expect(readReply(reading(), Reply, { reasons: ['a', 2, {}, true], verdict: 5 })).toEqual({
      reasons: ['a', '2', 'true'],
      verdict: 5,
    });
    expect(readReply(reading(), Reply, { reasons: 'one', verdict: [] })).toEqual({
      reasons: ['one'],
      verdict: undefined,
    });
  });
});
