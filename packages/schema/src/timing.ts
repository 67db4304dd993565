import * as z from 'zod';

/** `timing.json`: skill-creator's fields, plus the model, the token split and the cost. */
export const timingSchema = z.looseObject({
  total_tokens: z.number().int().nonnegative(),
  duration_ms: z.number().nonnegative(),
  total_duration_seconds: z.number().nonnegative(),
  executor_start: z.string().optional(),
  executor_end: z.string().optional(),
  model: z.string().nullable().optional(),
  input_tokens: z.number().int().nonnegative().optional(),
  output_tokens: z.number().int().nonnegative().optional(),
  cached_input_tokens: z.number().int().nonnegative().optional(),
  cache_write_input_tokens: z.number().int().nonnegative().optional(),
  /** US dollars; `null` when the model's price is unknown. */
  cost_usd: z.number().nonnegative().nullable().optional(),
});
export type Timing = z.infer<typeof timingSchema>;
