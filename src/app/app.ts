// What a noun's index.ts needs to declare its verbs: actions that receive a Context.
import type { Context } from './context.js';

/**
 * The work of a command: the context, then what commander passes its action (the declared
 * arguments, the options, the command itself); a handler names as many of them as it needs.
 */
export type Handler<Given extends unknown[]> = (ctx: Context, ...given: Given) => Promise<void>;

export interface App {
  /**
   * The action of a command, which runs its handler with the context. The handler's
   * parameters are checked against the declaration: `.action()` takes the result only if the
   * arguments and options the command declares (their types inferred from the declaration by
   * @commander-js/extra-typings, `enumOption` values as their union) fit the handler's types.
   */
  action<Given extends unknown[]>(handler: Handler<Given>): (...given: Given) => Promise<void>;
}
