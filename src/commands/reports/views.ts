// The lending views of a parsed report: verified numbers, identity, counterparties, recurring.
import type * as z from 'zod/mini';
import {
  authView,
  counterpartiesView,
  identityView,
  recurringView,
  type AuthView,
  type CounterpartiesView,
  type IdentityView,
  type RecurringStream,
} from '../../api/schemas.js';
import { parseShape } from '../../api/shape.js';
import type { Context } from '../../core/context.js';
import { formatAmount, formatBoolean, formatCount } from '../../core/output/format.js';
import type { View } from '../../core/output/view.js';
import { idPath } from '../args.js';
import { paintStreamStatus } from './status.js';

async function showView<S extends z.ZodMiniType>(ctx: Context, id: string, view: string, schema: S, build: (data: z.infer<S>) => View): Promise<void> {
  const path = idPath('/v1/reports', id, `/${view}`);
  const client = await ctx.client();
  const reply = await client.request({ method: 'GET', path });
  await ctx.print(reply, parseShape(schema, reply, `GET ${path}`), build);
}

const bank = (x: { bank_code: string; bank_name?: string | null }) => (x.bank_name ? `${x.bank_name} (${x.bank_code})` : x.bank_code);

export async function showAuth(ctx: Context, id: string): Promise<void> {
  await showView(ctx, id, 'auth', authView, (a) => ({
    kind: 'record',
    record: a,
    fields: [
      { key: 'account_holder', header: 'Account holder', value: (x: AuthView) => x.account_holder },
      { key: 'account_number', header: 'Account number', value: (x) => x.account_number },
      { key: 'bank_code', header: 'Bank', value: (x) => x.bank_code, display: bank },
      { key: 'swift_bic', header: 'SWIFT/BIC', value: (x) => x.swift_bic, display: (x, paint) => x.swift_bic ?? paint.dim('none') },
      { key: 'swift_note', header: 'SWIFT note', value: (x) => x.swift_note },
      { key: 'verification_status', header: 'Verification', value: (x) => x.verification_status },
    ],
  }));
}

export async function showIdentity(ctx: Context, id: string): Promise<void> {
  await showView(ctx, id, 'identity', identityView, (i) => ({
    kind: 'record',
    record: i,
    fields: [
      { key: 'account_holder', header: 'Account holder', value: (x: IdentityView) => x.account_holder },
      { key: 'account_number', header: 'Account number', value: (x) => x.account_number },
      { key: 'bank_code', header: 'Bank', value: (x) => x.bank_code, display: bank },
      { key: 'currency', header: 'Currency', value: (x) => x.currency },
      { key: 'period_from', header: 'Period from', value: (x) => x.statement_period?.from },
      { key: 'period_to', header: 'Period to', value: (x) => x.statement_period?.to },
    ],
  }));
}

interface CounterpartyRow {
  section: string;
  name: string;
  type: string;
  inflow: number;
  outflow: number;
  transactions: number;
}

function counterpartyRows(c: CounterpartiesView): CounterpartyRow[] {
  return [
    ...c.by_type.map((t) => ({
      section: 'By counterparty type',
      name: t.type,
      type: t.type,
      inflow: t.inflow,
      outflow: t.outflow,
      transactions: t.inflow_count + t.outflow_count,
    })),
    ...c.top_people.map((p) => ({ section: 'Top people', ...p, transactions: p.transaction_count })),
    ...c.top_merchants.map((m) => ({ section: 'Top merchants', ...m, transactions: m.transaction_count })),
  ];
}

export async function showCounterparties(ctx: Context, id: string): Promise<void> {
  await showView(ctx, id, 'counterparties', counterpartiesView, (c) => ({
    kind: 'list',
    title: `Counterparties of ${c.report_id}: inflow ${c.currency} ${formatAmount(c.total_inflow)}, outflow ${c.currency} ${formatAmount(c.total_outflow)}`,
    section: { key: 'section', header: 'SECTION', value: (r: CounterpartyRow) => r.section },
    rows: counterpartyRows(c),
    columns: [
      { key: 'name', header: 'NAME', value: (r: CounterpartyRow) => r.name, flex: true },
      { key: 'type', header: 'TYPE', value: (r) => r.type },
      { key: 'inflow', header: `INFLOW (${c.currency})`, value: (r) => r.inflow, display: (r) => formatAmount(r.inflow), align: 'right' },
      { key: 'outflow', header: `OUTFLOW (${c.currency})`, value: (r) => r.outflow, display: (r) => formatAmount(r.outflow), align: 'right' },
      { key: 'transactions', header: 'TXNS', value: (r) => r.transactions, display: (r) => formatCount(r.transactions), align: 'right' },
    ],
  }));
}

type StreamRow = RecurringStream & { direction: 'inflow' | 'outflow' };

export async function showRecurring(ctx: Context, id: string): Promise<void> {
  await showView(ctx, id, 'recurring', recurringView, (r) => {
    const rows: StreamRow[] = [
      ...r.inflow_streams.map((s) => ({ ...s, direction: 'inflow' as const })),
      ...r.outflow_streams.map((s) => ({ ...s, direction: 'outflow' as const })),
    ];
    return {
      kind: 'list',
      title: `Recurring streams of ${r.report_id}`,
      empty: 'No recurring streams were found in this statement.',
      items: rows,
      section: { key: 'direction', header: 'DIRECTION', value: (s: StreamRow) => (s.direction === 'inflow' ? 'Inflow' : 'Outflow') },
      rows,
      columns: [
        { key: 'counterparty', header: 'COUNTERPARTY', value: (s: StreamRow) => s.counterparty, flex: true },
        { key: 'category', header: 'CATEGORY', value: (s) => s.category },
        { key: 'cadence', header: 'CADENCE', value: (s) => s.cadence },
        { key: 'average_amount', header: `AVERAGE (${r.currency})`, value: (s) => s.average_amount, display: (s) => formatAmount(s.average_amount), align: 'right' },
        { key: 'occurrences', header: 'SEEN', value: (s) => s.occurrences, align: 'right' },
        { key: 'status', header: 'STATUS', value: (s) => s.status, display: (s, paint) => paintStreamStatus(s.status, paint) },
        { key: 'is_active', header: 'ACTIVE', value: (s) => s.is_active, display: (s, paint) => (s.is_active ? paint.good('yes') : paint.dim(formatBoolean(false))) },
        { key: 'last_date', header: 'LAST', value: (s) => s.last_date },
        { key: 'next_date', header: 'NEXT', value: (s) => s.next_date, display: (s, paint) => s.next_date ?? paint.dim('—') },
      ],
    };
  });
}
