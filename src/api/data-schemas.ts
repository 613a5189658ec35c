// Shapes of the central bank's dataset replies (`/v1/data/cbank/...`). The service documents only
// the envelope ({data, meta}); the payloads below are the regular shapes we chose (contract §6) so
// one renderer serves every family. Objects are loose: fields added later pass through.
import * as z from 'zod/mini';

export const datasetMeta = z.looseObject({
  source: z.string(),
  source_url: z.string(),
  attribution: z.string(),
  as_of: z.string(),
});

/** One line of a `/latest` reply (or of the snapshot); its `key` is the series selector. */
export const lineItem = z.looseObject({
  key: z.string(),
  label: z.string(),
  section: z.nullish(z.string()),
  value: z.nullable(z.number()),
  unit: z.nullish(z.string()),
  /** Macro indicators: the sentence of the source report the figure comes from. */
  source_quote: z.nullish(z.string()),
});

/** `/latest` and the snapshot: every line item of one month. */
export const datasetLatest = z.looseObject({
  data: z.looseObject({
    title: z.nullish(z.string()),
    period: z.string(),
    unit: z.nullish(z.string()),
    note: z.nullish(z.string()),
    items: z.array(lineItem),
  }),
  meta: datasetMeta,
});

export const seriesPoint = z.looseObject({
  period: z.string(),
  value: z.nullable(z.number()),
});

/** `/series`: one line item over time. */
export const datasetSeries = z.looseObject({
  data: z.looseObject({
    key: z.string(),
    label: z.string(),
    section: z.nullish(z.string()),
    unit: z.nullish(z.string()),
    frequency: z.nullish(z.string()),
    points: z.array(seriesPoint),
  }),
  meta: datasetMeta,
});

export type DatasetMeta = z.infer<typeof datasetMeta>;
export type LineItem = z.infer<typeof lineItem>;
export type DatasetLatest = z.infer<typeof datasetLatest>;
export type SeriesPoint = z.infer<typeof seriesPoint>;
export type DatasetSeries = z.infer<typeof datasetSeries>;
