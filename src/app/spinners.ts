// The spinners on stderr, for a person at a terminal: the one a command shows while it works
// (spinner), and the one of a request the service is slow to answer (slowRequestSpinner): a
// request still waiting for its reply after a second shows `Waiting for GET /v1/reports…`, taken
// off the line the moment the reply (or a failure, or Ctrl-C) comes. Every command gets the latter:
// a layer of each API client the Context makes on a terminal. It is not shown while a command's
// own spinner or progress bar holds the line (terminal-line.ts), nor while several requests run at
// once: a command that runs requests side by side writes results while others still wait, and
// output must never land on a spinner's line.
import type { Layer } from '../api/client.js';
import type { IO } from '../core/io.js';
import { oneLine } from '../core/output/format.js';
import {
  claimLine,
  fitToLine,
  lineClaimed,
  type LineText,
  type Spinner,
  spinnerStream,
} from '../core/stream/terminal-line.js';

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

/**
 * The layer that watches a client's requests: one spinner at a time, for the one request in flight.
 */
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
    // Drawn already: off the line now, before the caller writes anything. Still being drawn:
    // stopped the moment it is.
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

/**
 * A spinner on stderr when stderr is a terminal; otherwise nothing. It leaves stdin alone: ora's
 * `discardStdin` puts the terminal in raw mode, where Ctrl-C is a byte instead of SIGINT, and
 * (stdin never flowing) that byte is never read: the command runs on. With the terminal as it
 * is, Ctrl-C (and Ctrl-Z, Ctrl-\) reach svc and the rest of its pipeline as signals.
 */
export async function spinner(io: IO, text: LineText): Promise<Spinner> {
  if (!io.stderrIsTTY) return { update() {}, stop() {} };
  // The line is this spinner's: a slow request shows none of its own meanwhile.
  const release = claimLine(io.stderr);
  const drawn = await drawSpinner(io, text);
  return {
    update: (next) => drawn.update(next),
    stop: () => {
      drawn.stop();
      release();
    },
  };
}

/**
 * The layer of an API client that shows the spinner of a request slow to answer, on stderr (a
 * terminal).
 */
export function slowRequestLayer(io: IO): Layer {
  return slowRequestSpinner({
    spin: (text) => drawSpinner(io, text),
    lineTaken: () => lineClaimed(io.stderr),
  });
}

/** What ora draws before a spinner's text: the frame and a space. */
const SPINNER_FRAME_COLUMNS = 2;

/**
 * An ora spinner on stderr (a terminal), as spinner() describes: its text cut to one line of the
 * terminal, beside the frame and the space ora draws before it. ora is one of the packages apart
 * from the program (core/external.ts), loaded when a spinner is first drawn.
 */
async function drawSpinner(io: IO, text: LineText): Promise<Spinner> {
  const { default: ora } = await (await import('../core/external.js')).importOra();
  const columns = io.stderrColumns;
  const fit = (line: LineText) => fitToLine(line, columns, SPINNER_FRAME_COLUMNS);
  const drawn = ora({
    text: fit(text),
    stream: spinnerStream(io.stderr, columns),
    color: 'cyan',
    isEnabled: true,
    discardStdin: false,
  }).start();
  return {
    update: (next) => {
      drawn.text = fit(next);
    },
    stop: () => {
      drawn.stop();
    },
  };
}
