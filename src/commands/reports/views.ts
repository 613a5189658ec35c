// The lending views of a parsed report. Identity is documented field by field; of the auth view
// the documents give the words (holder, account number, SWIFT/BIC) and two names (`swift_note`,
// `verification_status`); of the counterparties and recurring views no field name at all, so
// those two are shown as they come, by the generic view.
import { otherFields, pick, textOf } from '../../api/reading.js';
import type { Context, ReplyReader } from '../../core/context.js';
import { genericView, withRest } from '../../core/output/generic.js';
import type { Column } from '../../core/output/view.js';
import { idPath } from '../args.js';
import { bankText, periodOf, periodText } from './report-view.js';

async function showView(ctx: Context, id: string, view: string, read: (what: string) => ReplyReader): Promise<void> {
  const path = idPath('/v1/reports', id, `/${view}`);
  const client = await ctx.client();
  const reply = await client.request({ method: 'GET', path });
  await ctx.present(reply, read(`GET ${path}`));
}

type Fact = { header: string; text?: string; key: string };

/** Facts as a field list, then whatever else the view carries. */
function factsView(facts: Fact[], body: unknown, known: readonly string[]) {
  const fields: Column<Fact[]>[] = facts.map((fact, i) => ({ key: fact.key, header: fact.header, value: (x) => x[i]!.text }));
  return withRest({ kind: 'record', record: facts, fields }, otherFields(body, known));
}

const AUTH_SWIFT = ['swift_bic', 'swift', 'bic', 'swift_code'];

export async function showAuth(ctx: Context, id: string): Promise<void> {
  await showView(ctx, id, 'auth', (what) => ({
    what,
    view: (body, reading) => {
      const swiftNote = textOf(reading.documented(body, 'swift_note'));
      const swift = textOf(pick(body, ...AUTH_SWIFT));
      return factsView(
        [
          { key: 'account_holder', header: 'Account holder', text: textOf(pick(body, 'account_holder')) },
          { key: 'account_number', header: 'Account number', text: textOf(pick(body, 'account_number')) },
          { key: 'bank', header: 'Bank', text: bankText(textOf(pick(body, 'bank', 'bank_name')), textOf(pick(body, 'bank_code'))) },
          { key: 'swift_bic', header: 'SWIFT/BIC', text: swift ?? (swiftNote ? 'none' : undefined) },
          { key: 'swift_note', header: 'SWIFT note', text: swiftNote },
          { key: 'verification_status', header: 'Verification', text: textOf(reading.documented(body, 'verification_status')) },
        ],
        body,
        ['account_holder', 'account_number', 'bank', 'bank_name', 'bank_code', 'swift_note', 'verification_status', ...AUTH_SWIFT],
      );
    },
  }));
}

export async function showIdentity(ctx: Context, id: string): Promise<void> {
  await showView(ctx, id, 'identity', (what) => ({
    what,
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

export async function showCounterparties(ctx: Context, id: string): Promise<void> {
  await showView(ctx, id, 'counterparties', (what) => ({
    what,
    view: (body) => genericView(body, { title: `Counterparties of ${id}`, empty: 'The reply names no counterparties.' }),
  }));
}

export async function showRecurring(ctx: Context, id: string): Promise<void> {
  await showView(ctx, id, 'recurring', (what) => ({
    what,
    view: (body) => genericView(body, { title: `Recurring streams of ${id}`, empty: 'No recurring streams were found in this statement.' }),
  }));
}
