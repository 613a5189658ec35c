// Colour for people: one palette, built from our own colour decision (chalk 5 ignores NO_COLOR).
// Without colour (a pipe, NO_COLOR) the palette is plain text and chalk is not loaded at all.

export interface Paint {
  header: (text: string) => string;
  title: (text: string) => string;
  dim: (text: string) => string;
  good: (text: string) => string;
  warn: (text: string) => string;
  bad: (text: string) => string;
  accent: (text: string) => string;
}

const plain = (text: string) => text;
const PLAIN: Paint = {
  header: plain,
  title: plain,
  dim: plain,
  good: plain,
  warn: plain,
  bad: plain,
  accent: plain,
};

export async function createPaint(enabled: boolean): Promise<Paint> {
  if (!enabled) return PLAIN;
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: 1 });
  return {
    header: (t) => c.bold.cyan(t),
    title: (t) => c.bold(t),
    dim: (t) => c.dim(t),
    good: (t) => c.green(t),
    warn: (t) => c.yellow(t),
    bad: (t) => c.red(t),
    accent: (t) => c.cyan(t),
  };
}
