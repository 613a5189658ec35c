// A writer to stdout that respects backpressure: when the stream's buffer is full it waits for
// 'drain' before taking more, so a slow reader slows the run down instead of filling memory.
// A reader that went away (`svc … | head -1`) ends the writing with StdoutClosedError.
// What the stream has passed on (to the pipe, the file, the terminal) is known by marks: a number
// set after a write is `flushedMark` once that write has left svc. A pipe's writes wait in the
// stream until its reader takes them; svc ended meanwhile loses them.

export class StdoutClosedError extends Error {
  override name = 'StdoutClosedError';
}

export class OutputSink {
  private closed = false;
  private wakeUp?: () => void;
  /**
   * Writes handed to the stream, and of them those it has passed on (its callbacks come in order).
   */
  private handed = 0;
  private flushed = 0;
  /** Marks not passed on yet, oldest first: the writes handed before each was set. */
  private marks: { handed: number; mark: number }[] = [];
  private passed?: number;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly options: {
      /** Called before each write, e.g. to take a progress bar off a shared terminal. */
      beforeWrite?: () => void;
      afterWrite?: () => void;
      /** Applied to each piece of text before it is written. */
      transform?: (text: string) => string;
    } = {},
  ) {
    const stop = () => {
      this.closed = true;
      this.wakeUp?.();
    };
    stream.once('error', stop);
    stream.once('close', stop);
  }

  async write(text: string): Promise<void> {
    if (text === '') return;
    if (this.closed) throw new StdoutClosedError('stdout was closed');
    const { beforeWrite, afterWrite, transform } = this.options;
    beforeWrite?.();
    this.handed++;
    const hasRoom = this.stream.write(
      transform ? transform(text) : text,
      (error?: Error | null) => {
        if (!error) this.flushed++;
      },
    );
    afterWrite?.();
    if (hasRoom) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.stream.removeListener('drain', done);
        this.wakeUp = undefined;
        resolve();
      };
      this.wakeUp = done;
      this.stream.once('drain', done);
    });
    if (this.closed) throw new StdoutClosedError('stdout was closed');
  }

  /** Notes `mark` after what was written so far: `flushedMark` is it once all that has left svc. */
  mark(mark: number): void {
    // The marks already passed on are let go as new ones come: they stay few however long the
    // output.
    this.flushedMark();
    this.marks.push({ handed: this.handed, mark });
  }

  /** The latest mark whose writes have all left svc; undefined before any. */
  flushedMark(): number | undefined {
    let passed = 0;
    while (passed < this.marks.length && this.marks[passed]!.handed <= this.flushed)
      this.passed = this.marks[passed++]!.mark;
    this.marks.splice(0, passed);
    return this.passed;
  }
}
