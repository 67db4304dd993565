import * as z from 'zod';
import { feedbackLabelsSchema } from './assertion-review.js';

/**
 * One case run's review, as skill-creator's viewer writes it. `run_id` is the case run's folder
 * below the run folder with `/` replaced by `-` (`eval-3`, `eval-3-with_skill-run-2`), which is
 * how the viewer names runs.
 */
export const runReviewSchema = z.looseObject({
  run_id: z.string().min(1),
  /** The reviewer's note; empty when the run was looked at and found fine. */
  feedback: z.string(),
  /** ISO 8601. */
  timestamp: z.string(),
});
export type RunReview = z.infer<typeof runReviewSchema>;

/**
 * `feedback.json` in a run folder, in skill-creator's shape (its viewer reads and writes it
 * unchanged): the reviews, and whether the review is `in_progress` or `complete`. Other keys are
 * kept, so Skeval's own additions can sit beside them.
 */
export const feedbackSchema = z
  .looseObject({
    reviews: z.array(runReviewSchema),
    status: z.enum(['in_progress', 'complete']),
    /** Skeval's per-assertion labels (`skeval report`); skill-creator's tools ignore the key. */
    skeval: feedbackLabelsSchema.optional(),
  })
  .meta({ title: 'Skeval feedback.json', description: "A person's review of a run, in skill-creator's shape." });
export type Feedback = z.infer<typeof feedbackSchema>;
