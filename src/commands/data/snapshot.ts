// `svc data snapshot [--month YYYY-MM]`: every C4 banking indicator of one month.
import { datasetLatest } from '../../api/data-schemas.js';
import type { Context } from '../../core/context.js';
import { fetchDataset } from './fetch.js';
import { SNAPSHOT, snapshotPath } from './families.js';
import { checkMonth, parseParams } from './input.js';
import { receivedList, type ParamOptions } from './options.js';
import { layoutOf, printDataset } from './print.js';
import { lineItemsView } from './views.js';

export async function showSnapshot(ctx: Context, options: ParamOptions & { month?: string }): Promise<void> {
  const month = checkMonth(options.month, '--month');
  const query = { [SNAPSHOT.monthParam]: month, ...parseParams(options.param) };
  const { reply, data } = await fetchDataset(ctx, { path: snapshotPath(), query }, datasetLatest, undefined);
  await printDataset(ctx, reply, data, (d) => lineItemsView(d, receivedList(reply.body, 'items'), layoutOf(ctx)));
}
