// Checks a reply against its documented shape; a reply of another shape is exit 10, not a crash.
import type { z } from 'zod';
import { UnexpectedReplyError } from '../core/errors.js';
import { excerpt, type ApiReply } from './client.js';

export function parseShape<S extends z.ZodType>(schema: S, reply: ApiReply, what: string): z.infer<S> {
  const result = schema.safeParse(reply.body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length ? issue.path.join('.') : 'the body';
  throw new UnexpectedReplyError(
    `unexpected reply to ${what}: ${where}: ${issue?.message ?? 'wrong shape'} (reply starts ${excerpt(reply.raw)})`,
  );
}
