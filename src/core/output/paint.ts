// Colour for people: one palette, built from our own colour decision (chalk 5 ignores NO_COLOR).
import { Chalk } from 'chalk';

export interface Paint {
  header(text: string): string;
  title(text: string): string;
  dim(text: string): string;
  good(text: string): string;
  warn(text: string): string;
  bad(text: string): string;
  accent(text: string): string;
}

export function createPaint(enabled: boolean): Paint {
  const c = new Chalk({ level: enabled ? 1 : 0 });
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
