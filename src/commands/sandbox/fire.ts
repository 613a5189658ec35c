import { ENDPOINTS, target } from '../../api/endpoints.js';
import { deliveredTo as deliveredToOf, FireReply, readReply } from '../../api/replies/sandbox.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { UsageError } from '../../core/errors.js';
import { otherFields } from '../../core/json/values.js';
import { withRest } from '../../core/output/generic.js';
import type { Column } from '../../core/output/view.js';
import { ERROR_CODE_FORM, type EventKind } from '../../webhooks/events.js';
import { sandboxClient } from './test-key.js';

const KNOWN = ['fired', 'report_id', 'environment'];

export async function fireWebhook(
  ctx: Context,
  id: string,
  options: { event?: EventKind; errorCode?: string },
): Promise<void> {
  const call = target(ENDPOINTS.sandboxFire, { report_id: id });
  const { event, errorCode } = options;
  if (errorCode !== undefined) {
    if (!ERROR_CODE_FORM.test(errorCode))
      throw new UsageError(
        `--error-code takes an error code such as TAMPER_DETECTED, not "${errorCode}"`,
      );
    if (event === 'report.ready')
      throw new UsageError('--error-code goes with --event report.failed, not report.ready');
  }
  const client = await sandboxClient(ctx);
  // Absent fields are left out: the service then sends its default event, report.ready.
  const json = {
    ...(event !== undefined && { event }),
    ...(errorCode !== undefined && { error_code: errorCode }),
  };
  const reply = await client.request({ ...call, json });
  await present(ctx, reply, {
    what: call.what,
    view: (body, reading) => {
      const r = readReply(reading, FireReply, body);
      const deliveredTo = deliveredToOf(body);
      const f = {
        fired: r?.fired,
        reportId: r?.report_id,
        environment: r?.environment,
        deliveredTo: deliveredTo && (deliveredTo.length ? deliveredTo.join(', ') : 'no endpoint'),
      };
      const fields: Column<typeof f>[] = [
        { key: 'fired', header: 'Fired', value: (x) => x.fired },
        { key: 'report_id', header: 'Report', value: (x) => x.reportId },
        { key: 'environment', header: 'Environment', value: (x) => x.environment },
        // Only where the reply has it (svc mock): the service does not say where it delivers.
        ...(deliveredTo
          ? [{ key: 'delivered_to', header: 'Delivered to', value: (x: typeof f) => x.deliveredTo }]
          : []),
      ];
      return withRest(
        { kind: 'record', record: f, fields },
        otherFields(body, deliveredTo ? [...KNOWN, 'delivered_to'] : KNOWN),
      );
    },
  });
  // svc mock adds `delivered_to`, the endpoints it delivers to: an empty list is worth a warning,
  // since a listener then waits in vain. The service does not send it: nothing is said then.
  if (deliveredToOf(reply.body)?.length === 0) {
    ctx.warn(
      'the service delivered this event to no endpoint: start `svc webhooks listen` with the same base URL first (it registers itself with svc mock)',
    );
  }
}
