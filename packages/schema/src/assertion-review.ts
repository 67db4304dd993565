import * as z from 'zod';
import { configurationSchema } from './benchmark.js';
import { verdictStatusSchema } from './grading.js';

/** What a reviewer says about one verdict: the grader got it right, or not. */
export const reviewLabels = ['agree', 'disagree'] as const;
export const reviewLabelSchema = z.enum(reviewLabels);
export type ReviewLabel = z.infer<typeof reviewLabelSchema>;

/** A reviewer's label on one verdict of one case run: the raw material for measuring a judge or grader. */
export const assertionReviewSchema = z.looseObject({
  /** The case run, as skill-creator's viewer names it (see `runReviewSchema`). */
  run_id: z.string().min(1),
  case_id: z.string(),
  arm: configurationSchema,
  run_number: z.number().int().positive(),
  /** The assertion's position in grading.json's `assertion_results`. */
  assertion_index: z.number().int().nonnegative(),
  /** The assertion's text, so a label still finds its row after the evals file changed. */
  assertion_text: z.string(),
  /** The verdict the reviewer saw and labelled. */
  verdict: verdictStatusSchema,
  /** `judge`, or the name of the grader that gave the verdict. */
  grader: z.string().optional(),
  label: reviewLabelSchema,
  note: z.string().optional(),
  /** ISO 8601. */
  timestamp: z.string(),
});
export type AssertionReview = z.infer<typeof assertionReviewSchema>;

/** Skeval's part of feedback.json, under `skeval`: a label per reviewed verdict. */
export const feedbackLabelsSchema = z.looseObject({
  version: z.literal(1),
  labels: z.array(assertionReviewSchema),
});
export type FeedbackLabels = z.infer<typeof feedbackLabelsSchema>;
