// Replies of the sandbox endpoints (`svc sandbox`). Creating a sandbox report answers with a
// report, whose shape is `report` in schemas.ts.
import * as z from 'zod/mini';

export const scenario = z.looseObject({
  name: z.string(),
  description: z.string(),
  status: z.string(),
  error_code: z.nullish(z.string()),
  /** The scenario used when none is named. */
  default: z.nullish(z.boolean()),
});

export const scenarioList = z.looseObject({
  data: z.array(scenario),
});

export const fireReply = z.looseObject({
  fired: z.string(),
  report_id: z.string(),
  environment: z.string(),
});

export type Scenario = z.infer<typeof scenario>;
export type FireReply = z.infer<typeof fireReply>;
