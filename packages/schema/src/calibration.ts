import * as z from 'zod';

const count = z.number().int().nonnegative();

/** Judge verdicts against the author's ground truth, pass and fail only. */
export const confusionSchema = z.object({
  judge_pass_human_pass: count,
  judge_pass_human_fail: count,
  judge_fail_human_pass: count,
  judge_fail_human_fail: count,
});
export type Confusion = z.infer<typeof confusionSchema>;

/** A labelled verdict the judge got wrong, by the author's label. */
export const calibrationMissSchema = z.object({
  run_dir: z.string(),
  run_id: z.string(),
  case_id: z.string(),
  assertion_index: z.number().int().nonnegative(),
  assertion_text: z.string(),
  judge: z.string(),
  verdict: z.enum(['pass', 'fail']),
  truth: z.enum(['pass', 'fail']),
  note: z.string().optional(),
});

/** Agreement of one group of labels: all of them, one judge model's, or one assertion's. */
export const agreementSchema = z.object({
  labels: count,
  /** Labels whose verdict matched the ground truth, over all labels; null with none. */
  agreement: z.number().min(0).max(1).nullable(),
  /** Cohen's κ of judge against truth; null when it is undefined (chance agreement 1: one class only, on both sides). */
  kappa: z.number().min(-1).max(1).nullable(),
  confusion: confusionSchema,
});
export type Agreement = z.infer<typeof agreementSchema>;

/** `skeval calibrate --json`: the judge measured against the author's review labels, pooled over runs. */
export const calibrationSchema = agreementSchema
  .extend({
    schema_version: z.literal(1),
    /** The κ under which a judge is flagged (`--min-kappa`). */
    min_kappa: z.number().min(-1).max(1),
    /** Run folders read, and labels left out (not on a judged pass or fail, or whose verdict is gone). */
    runs: z.array(z.string()),
    ignored: count,
    by_judge: z.array(
      agreementSchema.extend({ judge: z.string(), below_floor: z.boolean(), wrong: z.array(calibrationMissSchema) }),
    ),
    by_assertion: z.array(
      agreementSchema.extend({
        case_id: z.string(),
        assertion_text: z.string(),
        wrong: z.array(calibrationMissSchema),
      }),
    ),
  })
  .meta({ title: 'Skeval calibration', description: "The judge against the author's review labels." });
export type Calibration = z.infer<typeof calibrationSchema>;

/** What summary.json keeps of the last calibration that read the run: per judge, its κ and whether it is under the floor. */
export const calibrationRecordSchema = z.looseObject({
  /** ISO 8601. */
  measured_at: z.string(),
  labels: count,
  kappa: z.number().min(-1).max(1).nullable(),
  agreement: z.number().min(0).max(1).nullable(),
  min_kappa: z.number().min(-1).max(1),
  by_judge: z.array(
    z.object({
      judge: z.string(),
      labels: count,
      kappa: z.number().min(-1).max(1).nullable(),
      agreement: z.number().min(0).max(1).nullable(),
      below_floor: z.boolean(),
    }),
  ),
});
export type CalibrationRecord = z.infer<typeof calibrationRecordSchema>;
