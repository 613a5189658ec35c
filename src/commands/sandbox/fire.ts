import { fireReply, type FireReply } from '../../api/sandbox-schemas.js';
import { parseShape } from '../../api/shape.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { ERROR_CODE_FORM, EVENT_KINDS } from '../../webhooks/events.js';
import { checkChoice, idPath } from '../args.js';
import { sandboxClient } from './test-key.js';

export async function fireWebhook(ctx: Context, id: string, options: { event?: string; errorCode?: string }): Promise<void> {
  const path = idPath('/v1/sandbox/reports', id, '/fire_webhook');
  const event = checkChoice(options.event, '--event', EVENT_KINDS);
  const errorCode = options.errorCode;
  if (errorCode !== undefined) {
    if (!ERROR_CODE_FORM.test(errorCode)) throw new UsageError(`--error-code takes an error code such as TAMPER_DETECTED, not "${errorCode}"`);
    if (event === 'report.ready') throw new UsageError('--error-code goes with --event report.failed, not report.ready');
  }
  const client = await sandboxClient(ctx);
  // Absent fields are left out: the service then picks the event that fits the report.
  const json = { ...(event !== undefined && { event }), ...(errorCode !== undefined && { error_code: errorCode }) };
  const reply = await client.request({ method: 'POST', path, json });
  await ctx.print(reply, parseShape(fireReply, reply, `POST ${path}`), (f) => ({
    kind: 'record',
    record: f,
    fields: [
      { key: 'fired', header: 'Fired', value: (x: FireReply) => x.fired },
      { key: 'report_id', header: 'Report', value: (x) => x.report_id },
      { key: 'environment', header: 'Environment', value: (x) => x.environment },
    ],
  }));
}
