// Checks a reply against its documented shape; a reply of another shape is exit 10, not a crash.
import * as z from 'zod/mini';
import { en } from 'zod/v4/locales';
import { UnexpectedReplyError } from '../core/errors.js';
import { excerpt, type ApiReply } from './client.js';

// zod/mini carries no messages of its own: English ones, for the rare reply of another shape.
z.config(en());

export function parseShape<S extends z.ZodMiniType>(schema: S, reply: ApiReply, what: string): z.infer<S> {
  const result = schema.safeParse(reply.body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length ? issue.path.join('.') : 'the body';
  throw new UnexpectedReplyError(
    `unexpected reply to ${what}: ${where}: ${issue?.message ?? 'wrong shape'} (reply starts ${excerpt(reply.raw)})`,
  );
}
