// A table rendered for a terminal in a worker thread of its own (test/unit/table-fit.test.ts): a
// renderer whose time grows with the square of its input is stopped at a deadline there, where in
// the test's own thread its synchronous loop would hold the whole run.
import { parentPort, workerData } from 'node:worker_threads';

import { createPaint } from '../../src/core/output/paint.js';
import { renderTable } from '../../src/core/output/render.js';
import type { ListView } from '../../src/core/output/view.js';

export interface WideTable {
  rows: number;
  /** Columns of each of the two texts of a row. */
  textLength: number;
  /** Words of the second column's header. */
  headerWords: number;
  /** Columns of the terminal. */
  width: number;
}

interface Row {
  id: string;
  description: string;
  merchant: string;
}

const WORDS = [
  'QR',
  'payment',
  'to',
  'Kanchenjunga',
  'Departmental',
  'Store',
  'Butwal',
  'salary',
  'NABIL',
  'transfer',
];

/** Words of the list, one after the other from `first`, cut to `length` columns. */
function prose(length: number, first: number): string {
  let text = '';
  for (let i = first; text.length < length; i++)
    text += (text ? ' ' : '') + WORDS[i % WORDS.length];
  return text.slice(0, length);
}

function view({ rows, textLength, headerWords }: WideTable): ListView<Row> {
  const header = Array.from({ length: Math.max(1, headerWords) }, (_, i) =>
    WORDS[i % WORDS.length]!.toUpperCase(),
  ).join(' ');
  return {
    kind: 'list',
    rows: Array.from({ length: rows }, (_, i) => ({
      id: `txn_${String(i).padStart(6, '0')}`,
      description: prose(textLength, i),
      merchant: prose(textLength, i + 3),
    })),
    columns: [
      { key: 'id', header: 'ID', value: (r) => r.id, keep: true },
      { key: 'description', header: 'DESCRIPTION', value: (r) => r.description, flex: true },
      { key: 'merchant', header, value: (r) => r.merchant },
    ],
  };
}

async function main(table: WideTable): Promise<string> {
  return renderTable(view(table), {
    terminal: true,
    width: table.width,
    paint: await createPaint(true),
  });
}

if (parentPort) {
  const port = parentPort;
  void main(workerData as WideTable).then((text) => port.postMessage(text));
}
