// `svc reports underwrite ID --principal P --tenor-months N --annual-rate R [--applicant-name NAME]
// [--foir-ceiling F]` (1 billing unit a call): asks the service whether the statement supports a
// loan. The reply bundles FOIR, disposable income, the largest supportable EMI, affordability, risk
// flags, a name match and a verdict with reasons, but no document names its fields: it is shown as
// it comes, by the generic view (its amounts as money), with the verdict first where there is one.
import { ENDPOINTS, target } from '../../api/endpoints.js';
import { UnderwriteReply } from '../../api/replies/reports.js';
import { readReply } from '../../api/replies/schema.js';
import type { Context } from '../../app/context.js';
import { present } from '../../app/present.js';
import { otherFields } from '../../core/json/values.js';
import { painted } from '../../core/output/cells.js';
import { formatMoney, plainNumber } from '../../core/output/format.js';
import { genericView, withRest } from '../../core/output/generic.js';
import type { SectionsView } from '../../core/output/view.js';
import { ReplyReading } from '../../service/reading.js';
import { moneyOf } from '../money.js';
import {
  type UnderwriteOptions,
  underwritingBody,
  type UnderwritingRequest,
} from './lending-input.js';
import { DECISION_COLOURS, factList, titled } from './lending-view.js';

export async function underwrite(
  ctx: Context,
  id: string,
  options: UnderwriteOptions,
): Promise<void> {
  const call = target(ENDPOINTS.underwrite, { report_id: id });
  const json = underwritingBody(options);
  const reply = await (await ctx.client()).request({ ...call, json });
  await present(ctx, reply, {
    what: call.what,
    view: (body) => underwritingView(body, { id, loan: json.loan }),
  });
}

/**
 * `NPR 5,00,000.00 over 36 months at 12.5% a year`: the loan asked for, in the statement's
 * currency.
 */
export function loanText(loan: UnderwritingRequest['loan']): string {
  return `${formatMoney(loan.principal, 'NPR') ?? loan.principal} over ${loan.tenor_months} month${loan.tenor_months === 1 ? '' : 's'} at ${plainNumber(loan.annual_rate_pct)}% a year`;
}

export function underwritingView(
  body: unknown,
  frame: { id?: string; loan?: UnderwritingRequest['loan'] } = {},
): SectionsView {
  const title = titled('Underwriting', frame.id) + (frame.loan ? `: ${loanText(frame.loan)}` : '');
  // Its fields are not documented: nothing is noted for --debug.
  const verdict = readReply(new ReplyReading('underwrite'), UnderwriteReply, body)?.verdict;
  const money = moneyOf(body, 'NPR');
  // A verdict of one word leads; one that is an object or a list is no such word and keeps its
  // place.
  if (verdict === undefined) return genericView(body, { title, money });
  return withRest(
    factList([
      { key: 'verdict', header: 'Verdict', raw: verdict, show: painted(DECISION_COLOURS) },
    ]),
    otherFields(body, ['verdict']),
    { title, money },
  );
}
