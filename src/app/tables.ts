// A view as a table for this run's stdout: boxed with colour on a terminal, tab-separated in a
// pipe (core/output/render.ts), made a piece at a time.
import type { BsCalendar } from '../core/calendar/calendar.js';
import { createPaint } from '../core/output/paint.js';
import { tablePieces as pieces } from '../core/output/render.js';
import type { View } from '../core/output/view.js';
import type { Context } from './context.js';

export async function tablePieces(
  ctx: Context,
  view: View,
  calendar: BsCalendar | undefined,
): Promise<Iterable<string>> {
  // Times in the local zone (TZ), and how far off they are from the run's clock.
  const time = { now: ctx.now(), zone: ctx.timeZone() };
  return pieces(view, {
    terminal: ctx.io.stdoutIsTTY,
    width: ctx.io.columns,
    paint: await createPaint(ctx.color),
    time,
    calendar,
    wide: ctx.format === 'wide',
    headers: ctx.flags.headers !== false,
  });
}
