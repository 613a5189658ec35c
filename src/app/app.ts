// What a noun's index.ts needs to declare its verbs: lazy actions that receive a Context.
import type { Context } from './context.js';

export interface App {
  action<A extends unknown[]>(load: () => Promise<(ctx: Context, ...args: A) => Promise<void>>): (...args: unknown[]) => Promise<void>;
}
