// A writer to stdout that respects backpressure: when the stream's buffer is full it waits for
// 'drain' before taking more, so a slow reader slows the run down instead of filling memory.
// A reader that went away (`svc … | head -1`) ends the writing with StdoutClosedError.

export class StdoutClosedError extends Error {
  override name = 'StdoutClosedError';
}

export class OutputSink {
  private closed = false;
  private wakeUp?: () => void;

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
    const hasRoom = this.stream.write(transform ? transform(text) : text);
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
}
