// Values a person copies are never split across lines (docs/reference/output.md, "Tables"): URLs,
// ids, keys, tokens, dates and times, enumeration names. Generated text, tables, cards and field
// lists at every width from 20 to 200 columns (fast-check): each such value, whether its column
// declares it whole (`keep`) or fit.ts recognises it in free text (`staysWhole`), shows on one line
// of the screen. A line is wider than the terminal only when it holds one such value alone, for the
// terminal to fold. A table's free text is cut to one line with an ellipsis (wrapped only with -o
// wide), and a column a terminal has no room for is left out and named under the table: never a
// value split.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { labelledLines, lineWidth, staysWhole, wrapText } from '../../src/core/output/fit.js';
import { createPaint } from '../../src/core/output/paint.js';
import { renderTable } from '../../src/core/output/render.js';
import type { Column, ListView, RecordView } from '../../src/core/output/view.js';
import { AlignedTableWriter, type StreamColumn } from '../../src/core/stream/table-writers.js';

const plain = await createPaint(false);
const colour = await createPaint(true);
const ANSI = /\u001b\[[0-9;]*m/g;
const screen = (text: string) => text.replace(ANSI, '').replace(/\n$/, '').split('\n');
const BOX_EDGE = /^[│ ]+|[│ ]+$/g;

// ---- what a person copies, as the service writes it --------------------------------------------

/** Lower-case hex with at least one digit: a hash, a token's secret, an id's tail. */
const hexWithDigit = (min: number, max: number) =>
  fc
    .tuple(
      fc.stringMatching(/^[0-9a-f]*$/),
      fc.constantFrom(...'0123456789'),
      fc.stringMatching(/^[0-9a-f]*$/),
    )
    .map(([a, d, b]) => (a + d + b).padEnd(min, '7').slice(0, max));

const ids = fc
  .tuple(
    fc.constantFrom('rpt', 'cns', 'stmt', 'txn', 'creq', 'cst', 'swln', 'req'),
    hexWithDigit(8, 40),
  )
  .map(([prefix, tail]) => `${prefix}_${tail}`);
const keys = fc
  .tuple(fc.constantFrom('live', 'test'), hexWithDigit(32, 32))
  .map(([mode, secret]) => `svc_sk_${mode}_${secret}`);
const enumNames = fc
  .tuple(fc.array(fc.stringMatching(/^[a-z]{2,12}$/), { minLength: 2, maxLength: 5 }), fc.boolean())
  .map(([parts, upper]) => (upper ? parts.join('_').toUpperCase() : parts.join('_')));
const urls = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc
    .tuple(fc.constantFrom('https://connect.svc.test', 'http://127.0.0.1:8731'), ids, keys)
    .map(([base, id, token]) => `${base}/v1/consents/${id}/data?token=${token}`),
);
const moments = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2099-12-31T23:59:59Z'),
  noInvalidDate: true,
});
/** As the service sends them, and as svc shows them (date, time and zone apart by spaces). */
const dates = fc.oneof(
  moments.map((d) => d.toISOString()),
  moments.map((d) => d.toISOString().slice(0, 10)),
  fc
    .tuple(moments, fc.constantFrom('UTC', '+0545', '-0400'))
    .map(([d, zone]) => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} ${zone}`),
);
const hashes = hexWithDigit(40, 64);

const copyables = fc.oneof(ids, keys, enumNames, urls, dates, hashes);
/** Plain words, which wrapping may break when one is longer than a line. */
const plainWords = fc.stringMatching(/^[A-Za-z]{1,40}$/);

/** Free text: plain words with values to copy among them; the values, to look for. */
const freeText = fc
  .array(
    fc.oneof(
      { arbitrary: copyables.map((v) => ({ v, whole: true })), weight: 1 },
      { arbitrary: plainWords.map((v) => ({ v, whole: false })), weight: 3 },
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((words) => ({
    text: words.map((w) => w.v).join(' '),
    whole: words.filter((w) => w.whole).map((w) => w.v),
  }));

const widths = fc.integer({ min: 20, max: 200 });

/** Each value shows whole on one line of the screen. */
function expectWhole(lines: readonly string[], values: readonly string[]): void {
  for (const value of values)
    expect(
      lines.some((line) => line.includes(value)),
      `${value} whole on one line of:\n${lines.join('\n')}`,
    ).toBe(true);
}

/**
 * A line wider than the terminal holds one value to copy and nothing else (a box's edges aside).
 */
function expectWiderOnlyAlone(
  lines: readonly string[],
  width: number,
  values: readonly string[],
): void {
  for (const line of lines) {
    if (lineWidth(line) <= width) continue;
    expect(values, `the line wider than ${width}: ${line}`).toContain(line.replace(BOX_EDGE, ''));
  }
}

describe('staysWhole: the words a person copies', () => {
  it('recognises URLs, ids, keys, tokens, dates and times, amounts and enumeration names', () => {
    for (const word of [
      'https://connect.svc.test/connect?token=swln_4cd2fe8f55f6e2cd0ca78a70',
      'http://127.0.0.1:8731/v1/consents/cns_c29af449e7313dfa/data?token=cst_d9aee607fd9c2aac4e513c9a6e8e92a4',
      'svc_sk_test_deab3e6ea0eb54149ea8565e14af3cb9',
      'svc_sk_live_…6946e',
      'rpt_e8699f830adc84b8',
      'error_unsupported_document',
      'UNSUPPORTED_DOCUMENT',
      '2026-11-27',
      '2026-11-27T09:12:00Z',
      '2026-11-27\u00a009:12\u00a0UTC',
      '1,25,000.00',
      '39203d1316de0513390ca0624b4511ba427ae661ec939a4ec2e0c23fcc2eaedc',
      '(rpt_e8699f830adc84b8).',
      '`cns_c29af449e7313dfa`;',
    ]) {
      expect(staysWhole(word), word).toBe(true);
    }
  });

  it('leaves plain words, however long, and compact JSON breakable', () => {
    for (const word of [
      'Kanchenjunga',
      'Supercalifragilisticexpialidocious',
      'car-loan',
      '{"a":1,"b":[2,3]}',
      '/usr/share/doc/statements',
      '(',
      '',
    ]) {
      expect(staysWhole(word), word).toBe(false);
    }
  });

  it('takes time linear in a long word of hostile text', () => {
    const started = performance.now();
    for (const word of [
      ')'.repeat(200_000) + 'a',
      '_'.repeat(200_000) + '!',
      'a'.repeat(200_000) + '@',
      '1'.repeat(200_000) + '"',
    ])
      staysWhole(word);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('free text (messages on stderr, titles, footers)', () => {
  it('never splits a value to copy, at any width from 20 to 200', () => {
    fc.assert(
      fc.property(freeText, widths, ({ text, whole }, width) => {
        const lines = wrapText(text, width);
        expectWhole(lines, whole);
        expectWiderOnlyAlone(lines, width, whole);
        // Nothing is lost: the words are those of the text, in order.
        expect(lines.join(' ').split(' ').join('')).toBe(text.split(' ').join(''));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a date with its time and zone on one line: `2026-11-27 09:12 UTC`, never `2026-11-` / `27 09:12 UTC`', () => {
    for (const width of [20, 24, 30, 40, 60]) {
      const lines = wrapText(
        'The consent cns_c29af449e7313dfa expires on 2026-11-27 09:12 UTC unless it is revoked first.',
        width,
      );
      expectWhole(lines, ['2026-11-27 09:12 UTC', 'cns_c29af449e7313dfa']);
    }
  });
});

interface Row {
  id: string;
  amount: string;
  when: string;
  state: string;
  note: string;
}

describe('tables and cards', () => {
  const rows = fc.array(
    fc.record({
      id: fc.oneof(ids, keys, urls),
      amount: fc
        .tuple(fc.constantFrom('NPR', 'USD'), fc.integer({ min: 0, max: 10_000_000 }))
        .map(([currency, n]) => `${currency} ${n.toLocaleString('en-IN')}.00`),
      when: dates,
      state: enumNames,
      note: freeText,
    }),
    { minLength: 1, maxLength: 4 },
  );
  const columns: Column<Row>[] = [
    { key: 'id', header: 'ID', value: (r) => r.id, keep: true },
    { key: 'amount', header: 'AMOUNT', value: (r) => r.amount, align: 'right', keep: true },
    { key: 'when', header: 'WHEN', value: (r) => r.when, keep: true },
    { key: 'state', header: 'STATE', value: (r) => r.state },
    { key: 'note', header: 'NOTE', value: (r) => r.note, flex: true },
  ];

  it('-o wide: a boxed table or its cards never split a value declared whole or one to copy in free text, at 20 to 200 columns', () => {
    fc.assert(
      fc.property(rows, widths, fc.boolean(), (generated, width, coloured) => {
        const view: ListView<Row> = {
          kind: 'list',
          rows: generated.map((r) => ({ ...r, note: r.note.text })),
          columns,
        };
        const lines = screen(
          renderTable(view, {
            terminal: true,
            width,
            paint: coloured ? colour : plain,
            wide: true,
          }),
        );
        // A cell that is an ISO time is shown in UTC as `YYYY-MM-DD HH:MM UTC`: what must be whole
        // is what the screen shows.
        const shownAs = (value: string, cell: string) =>
          value === cell && /^\d{4}-\d{2}-\d{2}T/.test(value)
            ? `${value.slice(0, 10)} ${value.slice(11, 16)} UTC`
            : value;
        const shown = generated.flatMap((r) =>
          [r.id, r.amount, r.when, r.state].map((value) => shownAs(value, value)),
        );
        const inText = generated.flatMap((r) =>
          r.note.whole.map((value) => shownAs(value, r.note.text)),
        );
        expectWhole(lines, [...shown, ...inText]);
        expectWiderOnlyAlone(lines, width, [...shown, ...inText]);
      }),
      { numRuns: 300 },
    );
  });

  it('a table keeps the values of the columns it shows whole, cuts free text to one line and names the columns it leaves out, at 20 to 200 columns', () => {
    fc.assert(
      fc.property(rows, widths, (generated, width) => {
        const view: ListView<Row> = {
          kind: 'list',
          rows: generated.map((r) => ({ ...r, note: r.note.text })),
          columns,
        };
        const text = renderTable(view, { terminal: true, width, paint: plain });
        const lines = screen(text);
        const leftOut =
          /Left out at this width: (.*) \(-o wide/.exec(lines.join(' '))?.[1]?.split(', ') ?? [];
        // Cards are kept for terminals narrower than 60 columns, and for an id wider than the
        // terminal.
        if (width >= 60 && generated.every((r) => r.id.length + 4 <= width))
          expect(text).toMatch(/^┌/);
        const shownAs = (value: string) =>
          /^\d{4}-\d{2}-\d{2}T/.test(value)
            ? `${value.slice(0, 10)} ${value.slice(11, 16)} UTC`
            : value;
        const kept = generated.flatMap((r) =>
          columns
            .filter((c) => c.keep && !leftOut.includes(c.header))
            .map((c) => shownAs(String(c.value({ ...r, note: r.note.text })))),
        );
        expectWhole(lines, kept);
        // Cards, below 60 columns, give a value in free text too wide for the line a line of its
        // own.
        expectWiderOnlyAlone(lines, width, [
          ...kept,
          ...generated.flatMap((r) => [
            r.state,
            ...r.note.whole.map((v) => (v === r.note.text ? shownAs(v) : v)),
          ]),
        ]);
        // Free text on one line: whole, or cut with an ellipsis.
        if (width >= 60 && !leftOut.includes('NOTE'))
          for (const r of generated) {
            const note = r.note.text.includes(' ') ? r.note.text : shownAs(r.note.text);
            expect(
              lines.some(
                (line) =>
                  line.includes(note) ||
                  (line.includes('…') &&
                    note.startsWith(
                      line.replace(BOX_EDGE, '').split(' │ ').at(-1)!.replace(/…$/, ''),
                    )),
              ),
            ).toBe(true);
          }
      }),
      { numRuns: 300 },
    );
  });

  it('the streamed table, batch by batch, never splits them either: a later row that cannot keep one whole is a card', async () => {
    const stream: StreamColumn<Row>[] = [
      { key: 'id', header: 'ID', display: (r) => r.id, keep: true },
      { key: 'state', header: 'STATE', display: (r) => r.state },
      { key: 'note', header: 'NOTE', display: (r) => r.note, flex: true },
    ];
    await fc.assert(
      fc.asyncProperty(rows, rows, widths, async (first, later, width) => {
        let out = '';
        const writer = new AlignedTableWriter(
          { write: async (text: string) => void (out += text) } as never,
          width,
          plain,
          stream,
          'None.',
          undefined,
          { wide: true },
        );
        for (const batch of [first, later])
          await writer.write(batch.map((r) => ({ ...r, note: r.note.text })));
        await writer.finish(true);
        const lines = screen(out);
        const values = [...first, ...later].flatMap((r) => [r.id, r.state, ...r.note.whole]);
        expectWhole(lines, values);
        expectWiderOnlyAlone(lines, width, values);
      }),
      { numRuns: 200 },
    );
  });
});

describe('field lists', () => {
  const fields = fc.array(
    fc.record({
      label: fc.stringMatching(/^[A-Za-z][a-z_.]{0,44}$/),
      value: fc.oneof(
        copyables.map((v) => ({ text: v, whole: [v], declared: true })),
        freeText.map((t) => ({ text: t.text, whole: t.whole, declared: false })),
      ),
    }),
    { minLength: 1, maxLength: 6 },
  );

  it('give a value that does not fit beside its label a line of its own, unindented, at 20 to 200 columns', () => {
    fc.assert(
      fc.property(fields, widths, (generated, width) => {
        const text = labelledLines(
          generated.map((f) => [f.label, f.value.text, f.value.declared] as const),
          width,
          (label) => label,
        );
        const lines = screen(text);
        const whole = generated.flatMap((f) => f.value.whole);
        expectWhole(lines, whole);
        expectWiderOnlyAlone(lines, width, whole);
        // A declared value is beside its label, under a label too long for beside (at the indent),
        // or starts a line of its own.
        for (const f of generated.filter((f) => f.value.declared)) {
          const { text: value } = f.value;
          expect(
            lines.some(
              (line) =>
                line === value ||
                line.trimStart() === value ||
                (line.startsWith(f.label) && line.endsWith(`  ${value}`)),
            ),
          ).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a record view: the Connect URL under its label when it does not fit beside it, never broken at token=', () => {
    const url =
      'https://connect.svc.test/connect?token=swln_4cd2fe8f55f6e2cd0ca78a70bb61c2d9e4f1a7';
    const view: RecordView<{ url: string; token: string }> = {
      kind: 'record',
      record: { url, token: 'creq_4cd2fe8f55f6e2cd0ca78a70' },
      fields: [
        { key: 'request_token', header: 'Request token', value: (r) => r.token, keep: true },
        { key: 'connect_url', header: 'Connect URL', value: (r) => r.url, keep: true },
      ],
    };
    expect(screen(renderTable(view, { terminal: true, width: 80, paint: plain }))).toEqual([
      'Request token  creq_4cd2fe8f55f6e2cd0ca78a70',
      'Connect URL',
      url,
    ]);
    expect(screen(renderTable(view, { terminal: true, width: 120, paint: plain }))).toEqual([
      'Request token  creq_4cd2fe8f55f6e2cd0ca78a70',
      `Connect URL    ${url}`,
    ]);
  });
});
