// The data a consent or a Connect grant opens (`svc consents data`, `svc grants data`): one
// section per scope, its amounts as money.
import { ScopedDataReply } from '../api/replies/consents.js';
import type { TextOrTexts } from '../api/replies/schema.js';
import { readReply } from '../api/replies/schema.js';
import { otherFields } from '../core/json/values.js';
import { genericParts, genericView, heading, withRest } from '../core/output/generic.js';
import type { Part, SectionsView } from '../core/output/view.js';
import { type ReplyReading } from '../service/reading.js';
import { moneyOf } from './money.js';

/**
 * `{scopes[], data:{identity:{…}, income:{…}}}` (a consent's or a grant's data): the scopes, then
 * one section per scope of `data`, in the order of `scopes`, each as the generic view shows it.
 * A reply of another shape is shown whole by the generic view.
 */
export function scopedDataView(body: unknown, reading: ReplyReading, title?: string): SectionsView {
  const r = readReply(reading, ScopedDataReply, body);
  const data = r?.data;
  if (!data) return genericView(body, { title, empty: 'The reply holds no data.' });
  const listed = Array.isArray(r?.scopes)
    ? r.scopes.filter((s): s is string => s !== undefined)
    : [];
  const record = { scopes: listed.join(', ') };
  const designed = withRest(
    {
      kind: 'record',
      record,
      fields: [{ key: 'scopes', header: 'Scopes', value: (r: typeof record) => r.scopes }],
    },
    otherFields(body, ['scopes', 'data']),
    { title },
  );
  const order = [
    ...listed.filter((scope) => Object.hasOwn(data, scope)),
    ...Object.keys(data).filter((key) => !listed.includes(key)),
  ];
  const sections = [...new Set(order)].flatMap((scope) => scopeParts(scope, data[scope]));
  return { ...designed, parts: [...designed.parts, ...sections] };
}

/** One scope's data under its name; its own tables under `Scope › table`. */
function scopeParts(scope: string, value: unknown): Part[] {
  const name = heading([scope])!;
  const parts = genericParts(value, [], { money: moneyOf(value, 'NPR') });
  if (parts.length === 0)
    return [
      {
        heading: name,
        view: {
          kind: 'record',
          record: {},
          fields: [{ key: scope, header: scope, value: () => '' }],
        },
      },
    ];
  return parts.map((part) => ({
    ...part,
    heading: part.heading === undefined ? name : `${name} › ${part.heading}`,
  }));
}

/** A reply's `scopes` for people: `identity, income`; a value that is no list, as it came. */
export function scopesText(scopes: TextOrTexts): string | undefined {
  return Array.isArray(scopes) ? scopes.filter(Boolean).join(', ') : scopes;
}
