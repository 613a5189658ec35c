// The pager (docs/reference/output.md, "Pager"), as gh's and git's: on a terminal, an output taller
// than the screen goes through one (`less -FRX` unless SVC_PAGER, the profile's `pager` or PAGER
// name another). stdout is held until it is taller than the screen: a short output is printed as it
// is, a long one is handed to the pager with the rest streamed after it. A pager that cannot start
// means printing directly. A person who quits the pager early ends the output, quietly: the run is
// told to stop making it (no work on rows nobody reads).
import { Writable } from 'node:stream';

import { InterruptedError } from '../errors.js';
import { lineWidth } from '../output/fit.js';
import { type Env, type OwnVariable, readEnv } from '../variables.js';
/** A pager started, reading our output on its standard input and drawing on the terminal. */
export interface PagerProcess {
  readonly input: NodeJS.WritableStream;
  /**
   * Settles (never rejects) once the pager has exited, with its exit code (null when a signal ended
   * it).
   */
  readonly exited: Promise<number | null>;
  /** Ends the pager: svc was asked to stop (SIGTERM, SIGHUP). */
  stop(): void;
}

/**
 * Starts a pager command (its words); rejects when it cannot be started (not found, not
 * executable).
 */
export type StartPager = (command: readonly string[], env: Env) => Promise<PagerProcess>;

/** What an output is paged with, found by the run (app/pager.ts paged). */
export interface PagerSetting {
  /** The pager's command, as words. */
  command: readonly string[];
  /** The pager's environment. */
  env: Env;
  /** The terminal's rows: an output that leaves no row for the shell's prompt after it is paged. */
  rows: number;
  columns: number;
  start: StartPager;
  /**
   * Writes what the streams above still hold (masking holds back what may begin a secret), before
   * the pager's input ends.
   */
  flush: () => void;
  /** Hears, with --debug, why an output was printed directly after all. */
  note?: (line: string) => void;
}

/**
 * What a pager that failed is given again, printed directly: the output sent to it, up to this
 * much. A pager that exits with an error (not `q`, which is exit 0) before it took more is taken to
 * have failed to start.
 */
const REPLAY_BYTES = 1024 * 1024;

type Chunk = string | Uint8Array;

type State =
  | { kind: 'direct' }
  | { kind: 'holding'; held: Chunk[]; rows: number; lineColumns: number }
  | { kind: 'paging'; pager: PagerProcess; copy: Chunk[] | undefined; copied: number }
  | { kind: 'quit' };

let running = 0;

/**
 * Whether a pager is running now: Ctrl-C is then the pager's (less ends a search with it), not
 * svc's.
 */
export function pagerRunning(): boolean {
  return running > 0;
}

/**
 * stdout on a terminal: written through as it comes, except while an output is paged (`paged`).
 * Its `stream` is the run's stdout.
 */
export class PagedOutput {
  readonly stream: Writable;
  private state: State = { kind: 'direct' };
  private setting?: PagerSetting;
  private quit?: AbortController;

  constructor(private readonly terminal: NodeJS.WritableStream) {
    this.stream = new Writable({
      decodeStrings: false,
      write: (chunk: Chunk, _encoding, done) => this.take(chunk, done),
    });
  }

  /**
   * Runs `work`, which writes one output, paging it when it is taller than the terminal. `work`
   * stops at the signal it is given: `signal`, or the pager quitting. A pager quit early is no
   * failure: `work`'s interruption then ends here. Resolves once the pager has exited.
   */
  async paged(
    setting: PagerSetting,
    work: (signal: AbortSignal) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    if (this.setting) return work(signal);
    this.setting = setting;
    this.quit = new AbortController();
    this.state = { kind: 'holding', held: [], rows: 0, lineColumns: 0 };
    try {
      await work(AbortSignal.any([signal, this.quit.signal]));
    } catch (error) {
      if (!(error instanceof InterruptedError && this.quit.signal.aborted && !signal.aborted))
        throw error;
    } finally {
      setting.flush();
      await this.settle(signal.aborted);
      this.setting = undefined;
    }
  }

  /**
   * The end of a paged output: a held one printed, the pager's input ended and its exit waited for.
   */
  private async settle(stopping: boolean): Promise<void> {
    if (stopping && this.state.kind === 'paging') this.state.pager.stop();
    // Every write so far handed on (an empty write goes through in its turn).
    await new Promise<void>((resolve) => this.stream.write('', () => resolve()));
    const state = this.state;
    this.state = { kind: 'direct' };
    if (state.kind === 'holding') for (const chunk of state.held) this.terminal.write(chunk);
    if (state.kind === 'paging') {
      state.pager.input.end();
      await state.pager.exited;
    }
  }

  private take(chunk: Chunk, done: () => void): void {
    const state = this.state;
    if (state.kind === 'direct') {
      if (this.terminal.write(chunk)) done();
      else this.terminal.once('drain', () => done());
    } else if (state.kind === 'paging') {
      void this.handOn(state, chunk).then(done);
    } else if (state.kind === 'quit') {
      done();
    } else {
      state.held.push(chunk);
      if (this.fits(state, chunk)) done();
      else void this.startPager(state).then(done);
    }
  }

  /**
   * Whether the output held so far still leaves a row for the prompt, each line counted in the rows
   * it wraps to.
   */
  private fits(state: Extract<State, { kind: 'holding' }>, chunk: Chunk): boolean {
    const { rows, columns } = this.setting!;
    const lines = (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')).split(
      '\n',
    );
    for (const [i, line] of lines.entries()) {
      state.lineColumns += lineWidth(line);
      if (i === lines.length - 1) break;
      state.rows += Math.max(1, Math.ceil(state.lineColumns / columns));
      state.lineColumns = 0;
    }
    return state.rows + Math.ceil(state.lineColumns / columns) < rows;
  }

  private async startPager(holding: Extract<State, { kind: 'holding' }>): Promise<void> {
    const setting = this.setting!;
    let pager: PagerProcess;
    try {
      pager = await setting.start(setting.command, setting.env);
    } catch (error) {
      this.printDirectly(
        holding.held,
        `the pager \`${setting.command.join(' ')}\` cannot start (${(error as Error).message})`,
      );
      return;
    }
    running++;
    const paging: Extract<State, { kind: 'paging' }> = {
      kind: 'paging',
      pager,
      copy: [],
      copied: 0,
    };
    this.state = paging;
    void pager.exited.then((code) => this.exited(paging, code));
    for (const chunk of holding.held) await this.handOn(paging, chunk);
  }

  /** A chunk to the pager; settles when it has room for more, or has exited. */
  private handOn(paging: Extract<State, { kind: 'paging' }>, chunk: Chunk): Promise<void> {
    if (this.state !== paging) return Promise.resolve();
    paging.copied += chunk.length;
    if (paging.copy && paging.copied <= REPLAY_BYTES) paging.copy.push(chunk);
    else paging.copy = undefined;
    if (paging.pager.input.write(chunk)) return Promise.resolve();
    return Promise.race([
      new Promise<void>((resolve) => paging.pager.input.once('drain', () => resolve())),
      paging.pager.exited.then(() => {}),
    ]);
  }

  private exited(paging: Extract<State, { kind: 'paging' }>, code: number | null): void {
    running--;
    // Its input had ended: it had the whole output.
    if (this.state !== paging) return;
    if (code !== 0 && code !== null && paging.copy) {
      this.printDirectly(
        paging.copy,
        `the pager \`${this.setting!.command.join(' ')}\` exited with ${code}`,
      );
      return;
    }
    // The person quit the pager (q): the rest is for no one.
    this.state = { kind: 'quit' };
    this.quit!.abort();
  }

  private printDirectly(chunks: readonly Chunk[], why: string): void {
    this.setting!.note?.(`debug: ${why}; printing directly`);
    this.state = { kind: 'direct' };
    for (const chunk of chunks) this.terminal.write(chunk);
  }
}

/**
 * The words of a pager's command line, as a shell splits them (gh splits PAGER the same way):
 * blanks part words; '…' keeps everything, "…" everything but \ before " \ $ `; \ outside quotes
 * keeps the next character. Undefined for a quote left open, or no word at all.
 */
export function pagerWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) return undefined;
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= '';
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && '"\\$`'.includes(text[i + 1] ?? '')) i++;
        word += text[i];
      }
      if (i >= text.length) return undefined;
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i];
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words.length > 0 ? words : undefined;
}

/**
 * The pager's environment: ours without the program's own variables (keys and tokens among them),
 * and LESS=FRX where LESS is unset, so that a `less` named without options still passes colour
 * through and quits at once when the output fits after all.
 */
export function pagerEnvironment(env: Env, own: OwnVariable): Env {
  const kept = Object.entries(env).filter(([name]) => !own(name));
  return { ...Object.fromEntries(kept), LESS: readEnv(env, 'LESS') ?? 'FRX' };
}
