import { report } from '../../api/schemas.js';
import { parseShape } from '../../api/shape.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { reportView } from '../reports/get.js';
import { sandboxClient } from './test-key.js';

const PATH = '/v1/sandbox/reports';

export async function createSandboxReport(ctx: Context, options: { scenario?: string; quiet?: boolean }): Promise<void> {
  const scenario = options.scenario === undefined ? undefined : checkScenarioName(options.scenario);
  if (options.quiet && ctx.format !== 'table') throw new UsageError(`--quiet prints only the report id; it conflicts with --output ${ctx.format}`);
  const client = await sandboxClient(ctx);
  const reply = await client.request({ method: 'POST', path: PATH, json: scenario === undefined ? {} : { scenario } });
  const created = parseShape(report, reply, `POST ${PATH}`);
  if (options.quiet) {
    ctx.out(created.report_id + '\n');
    return;
  }
  const scenarioName = typeof (reply.body as { scenario?: unknown }).scenario === 'string' ? (reply.body as { scenario: string }).scenario : scenario;
  await ctx.print(reply, created, (r) => ({ ...reportView(r), title: `Sandbox report${scenarioName ? ` (scenario ${scenarioName})` : ''}` }));
}

/** Scenario names are the service's to list (`svc sandbox scenarios`); only their form is checked here. */
function checkScenarioName(name: string): string {
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) {
    throw new UsageError(`--scenario takes a scenario name such as salaried or error_tamper_detected, not "${name}"`, [
      'See the names with `svc sandbox scenarios`.',
    ]);
  }
  return name;
}
