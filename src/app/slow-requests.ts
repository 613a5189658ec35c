// A spinner for a request the service is slow to answer: on a terminal, a request still waiting
// for its reply after a second shows `Waiting for GET /v1/reports…` on stderr, taken off the line
// the moment the reply (or a failure, or Ctrl-C) comes. Every command gets it: a layer of each API
// client the Context makes on a terminal. Not shown while a command's own spinner or progress bar holds the line
// (terminal-line.ts), nor while several requests run at once: a command that runs requests side by
// side writes results while others still wait, and output must never land on a spinner's line.
import type { Layer } from '../api/client.js';
import { oneLine } from '../core/output/format.js';
import type { LineText } from '../core/stream/terminal-line.js';

/** How long a request may take before a person is shown that svc is waiting for it. */
export const SLOW_REQUEST_MS = 1_000;

/** The longest request path a spinner shows: it must fit one line. */
const MAX_SHOWN = 60;

export interface SlowRequestOptions {
  /** Draws a spinner on the terminal; its stop() takes it off the line. */
  spin: (text: LineText) => Promise<{ stop(): void }>;
  /** Whether another spinner or a progress bar holds the line now. */
  lineTaken: () => boolean;
  delayMs?: number;
}

interface Waiting {
  readonly text: LineText;
}

/** The spinner shown, or being drawn, for a request. */
interface Shown {
  for: Waiting;
  drawn?: { stop(): void };
  stopped: boolean;
}

/** The layer that watches a client's requests: one spinner at a time, for the one request in flight. */
export function slowRequestSpinner(options: SlowRequestOptions): Layer {
  const delay = options.delayMs ?? SLOW_REQUEST_MS;
  const inFlight = new Set<Waiting>();
  /** The spinner shown, or being drawn (ora loads on first use), and the request it is for. */
  let shown: Shown | undefined;

  const hide = () => {
    if (!shown) return;
    const current = shown;
    shown = undefined;
    current.stopped = true;
    // Drawn already: off the line now, before the caller writes anything. Still being drawn: stopped the moment it is.
    current.drawn?.stop();
  };

  // Only a timer starts a spinner; a reply only ever takes one away, so nothing a command writes
  // after a reply can meet a spinner drawn in the same instant.
  const slow = (waiting: Waiting) => {
    if (shown || inFlight.size !== 1 || !inFlight.has(waiting) || options.lineTaken()) return;
    const entry: Shown = { for: waiting, stopped: false };
    shown = entry;
    options.spin(waiting.text).then(
      (spinner) => {
        if (entry.stopped) spinner.stop();
        else entry.drawn = spinner;
      },
      () => {
        // No spinner, then: the request goes on all the same.
      },
    );
  };

  return (next) => async (spec) => {
    // On a narrow terminal the request is shown without its "Waiting for".
    const waiting: Waiting = {
      text: { fields: ['Waiting for', `${spec.method} ${shownPath(spec.path)}…`], leaveOut: [0] },
    };
    // A second request at once: the first one's spinner goes (see above).
    if (inFlight.size > 0) hide();
    inFlight.add(waiting);
    const timer = setTimeout(() => slow(waiting), delay);
    timer.unref?.();
    try {
      return await next(spec);
    } finally {
      clearTimeout(timer);
      inFlight.delete(waiting);
      if (shown?.for === waiting) hide();
    }
  };
}

/** The path of a request without its query (which may carry a token), on one line and short. */
function shownPath(path: string): string {
  const bare = oneLine(path.split(/[?#]/)[0] ?? '');
  return bare.length > MAX_SHOWN ? bare.slice(0, MAX_SHOWN - 1) + '…' : bare;
}
