// What a real terminal draws: the widths svc counts (core/output/width.ts) against tmux's own. Each
// text is printed in a pane of its own and the cursor's column read back; a table's borders line
// up when tmux draws every one of its lines equally wide.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPaint } from '../../src/core/output/paint.js';
import { renderTable } from '../../src/core/output/render.js';
import type { ListView } from '../../src/core/output/view.js';
import { DRAWN } from '../support/drawn-widths.js';

const socket = `svc-widths-${process.pid}`;
const scratch = mkdtempSync(join(tmpdir(), 'svc-widths-'));
// A session that stays: the server would end with the last pane measured, and the next one race its
// end.
beforeAll(() => tmux('new-session', '-d', '-s', 'stay', 'sleep 600'));
afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // no session was left
  }
  rmSync(scratch, { recursive: true, force: true });
});

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], {
    encoding: 'utf8',
    env: { ...process.env, LANG: 'C.UTF-8' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

let count = 0;

/**
 * Columns tmux takes to draw the text: printed after `[` and before `]` in a wide pane, the
 * cursor's column read back.
 */
async function drawnWidth(text: string): Promise<number> {
  const session = `w${++count}`;
  const file = join(scratch, session);
  writeFileSync(file, `[${text}]`);
  tmux('new-session', '-d', '-s', session, '-x', '300', '-y', '3', `cat '${file}'; sleep 30`);
  try {
    const deadline = Date.now() + 5_000;
    while (!tmux('capture-pane', '-p', '-t', session).includes(']')) {
      if (Date.now() > deadline) throw new Error(`tmux did not draw ${JSON.stringify(text)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Number(tmux('display', '-p', '-t', session, '#{cursor_x}').trim()) - 2;
  } finally {
    tmux('kill-session', '-t', session);
  }
}

describe('widths as tmux draws them', () => {
  it('svc counts each text as tmux draws it', async () => {
    const drawn: [string, number][] = [];
    for (const [text] of DRAWN) drawn.push([text, await drawnWidth(text)]);
    expect(drawn).toEqual(DRAWN);
  });

  interface Row {
    date: string;
    narration: string;
    name: string;
    debit: string;
  }
  const rows: Row[] = [
    {
      date: '2081-04-01',
      narration: 'FONEPAY QR/श्री गणेश किराना पसल/KTM',
      name: 'श्री राम प्रसाद शर्मा',
      debit: '1,250.00',
    },
    {
      date: '2081-04-03',
      narration: 'ESEWA LOAD/राम बहादुर श्रेष्ठ 😀',
      name: 'हरि प्रसाद अधिकारी',
      debit: '500.00',
    },
    { date: '2081-04-07', narration: 'तलब - नेपाल बैंक लिमिटेड 🇳🇵', name: 'नेपाल बैंक लिमिटेड', debit: '' },
    {
      date: '2081-04-09',
      narration: 'भाटभटेनी सुपरमार्केट, कोटेश्वर',
      name: 'ज्ञानेन्द्र कुमार क्षेत्री',
      debit: '12,40,000.00',
    },
    {
      date: '2081-04-12',
      narration: '中文 商店 KTM ✅',
      name: 'Sita Kumari Thapa',
      debit: '99.50',
    },
  ];
  const view: ListView<Row> = {
    kind: 'list',
    rows,
    columns: [
      { key: 'date', header: 'DATE', value: (r) => r.date, keep: true },
      { key: 'narration', header: 'NARRATION', value: (r) => r.narration, flex: 'cut' },
      { key: 'name', header: 'NAME', value: (r) => r.name, flex: true },
      {
        key: 'debit',
        header: 'DEBIT',
        value: (r) => r.debit,
        keep: true,
        align: 'right',
        currency: 'NPR',
      },
    ],
  };

  it.each([60, 80])(
    'a table of Nepali names and narrations, emoji and CJK at %i columns: tmux draws every line equally wide, within the terminal',
    async (width) => {
      const table = renderTable(view, { terminal: true, width, paint: await createPaint(false) });
      const lines = table.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^┌/);
      const widths = new Set<number>();
      for (const line of lines) widths.add(await drawnWidth(line));
      expect([...widths], table).toHaveLength(1);
      expect([...widths][0]).toBeLessThanOrEqual(width);
    },
  );
});
