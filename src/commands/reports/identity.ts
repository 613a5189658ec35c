// `svc reports identity ID`: the identity view, documented field by field.
import { pick, textOf } from '../../core/reading.js';
import { ENDPOINTS } from '../../api/endpoints.js';
import type { Context } from '../../app/context.js';
import { bankText, periodOf, periodText } from './report-view.js';
import { factsView, showView } from './show-view.js';

export async function showIdentity(ctx: Context, id: string): Promise<void> {
  await showView(ctx, id, ENDPOINTS.identity, (what) => ({
    what,
    viewRecords: 'flat',
    view: (body, reading) => {
      if (pick(body, 'period', 'statement_period') === undefined) reading.documented(body, 'period');
      return factsView(
        [
          { key: 'account_holder', header: 'Account holder', text: textOf(reading.documented(body, 'account_holder')) },
          { key: 'account_number', header: 'Account number', text: textOf(reading.documented(body, 'account_number')) },
          { key: 'bank', header: 'Bank', text: bankText(textOf(reading.documented(body, 'bank')), textOf(reading.documented(body, 'bank_code'))) },
          { key: 'currency', header: 'Currency', text: textOf(reading.documented(body, 'currency')) },
          { key: 'period', header: 'Period', text: periodText(periodOf(body)) },
        ],
        body,
        ['account_holder', 'account_number', 'bank', 'bank_code', 'currency', 'period', 'statement_period'],
      );
    },
  }));
}
