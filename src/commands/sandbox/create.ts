import { ENDPOINTS, target } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { UsageError } from '../../core/errors.js';
import { shownText } from '../../core/output/format.js';
import { isTableFormat } from '../../core/output/formats.js';
import { ReplyReading } from '../../service/reading.js';
import { reportReader } from '../reports/report-view.js';
import { sandboxClient } from './test-key.js';

export async function createSandboxReport(
  ctx: Context,
  options: { scenario?: string; quiet?: boolean },
): Promise<void> {
  const scenario = options.scenario === undefined ? undefined : checkScenarioName(options.scenario);
  if (options.quiet && !isTableFormat(ctx.format))
    throw new UsageError(
      `--quiet prints only the report id; it conflicts with --output ${ctx.format}`,
    );
  const client = await sandboxClient(ctx);
  const call = target(ENDPOINTS.sandboxCreate);
  const reply = await client.request({ ...call, json: scenario === undefined ? {} : { scenario } });
  if (options.quiet) {
    // The one thing --quiet prints is the id: a reply without one cannot be used.
    const { readReply, ReportIdReply } = await import('../../api/replies/sandbox.js');
    ctx.out(
      shownText(
        readReply(new ReplyReading(call.what), ReportIdReply, reply.body).report_id,
        ctx.secrets,
      ) + '\n',
    );
    return;
  }
  await present(
    ctx,
    reply,
    reportReader(call.what, `Sandbox report${scenario ? ` (scenario ${scenario})` : ''}`),
  );
}

/**
 * Scenario names are the service's to list (`svc sandbox scenarios`); only their form is checked
 * here.
 */
function checkScenarioName(name: string): string {
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) {
    throw new UsageError(
      `--scenario takes a scenario name such as salaried or error_unsupported_bank, not "${name}"`,
      ['See the names with `svc sandbox scenarios`.'],
    );
  }
  return name;
}
