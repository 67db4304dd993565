import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { feedbackFileName, readFeedback, writeFeedback } from '@skeval/run-folder';
import { feedbackSchema } from '@skeval/schema';
import { assertionReviewSchema, runReviewSchema } from '@skeval/schema/internal';
import * as z from 'zod';
import type { CollectedReport } from '../collect/collect-report.js';
import { readJsonBody, sendJson } from './local-request.js';

/** The report as the page last loaded it, and the case-run ids each of its runs (by key) may be reviewed by. */
export interface ServedReport extends CollectedReport {
  reviewIds: Map<string, Set<string>>;
}

export function servedReportOf(collected: CollectedReport): ServedReport {
  const reviewIds = new Map(
    collected.data.runs.map((run) => [run.key, new Set(run.cases.flatMap((c) => c.runs.map((r) => r.reviewId)))]),
  );
  return { ...collected, reviewIds };
}

/**
 * What the page posts: the run (by its key in the page, never a path) and its whole
 * feedback.json, with no key the page does not write (feedback.json is read more leniently).
 */
const feedbackPostSchema = z.strictObject({
  run: z.string().max(20),
  feedback: z.strictObject({
    reviews: z.array(z.strictObject(runReviewSchema.shape)).max(100_000),
    status: feedbackSchema.shape.status,
    skeval: z
      .strictObject({
        version: z.literal(1),
        labels: z.array(z.strictObject(assertionReviewSchema.shape)).max(1_000_000),
      })
      .optional(),
  }),
});

/**
 * `POST /api/feedback`: checks the body, that its run is in the report and names only that run's
 * case runs, and that the run folder's feedback.json is not one it cannot read; then writes it atomically.
 */
export async function saveFeedback(
  request: IncomingMessage,
  response: ServerResponse,
  { report, cwd }: { report: ServedReport; cwd: string },
): Promise<void> {
  const body = await readJsonBody(request);
  if (!body.ok) return sendJson(response, body.status, { error: body.error });
  const parsed = feedbackPostSchema.safeParse(body.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the body';
    return sendJson(response, 400, { error: `${where}: ${issue?.message ?? 'not a feedback document'}` });
  }
  const { run, feedback } = parsed.data;
  const index = report.data.runs.findIndex((entry) => entry.key === run);
  const runDir = report.runDirs[index];
  const ids = report.reviewIds.get(run);
  if (runDir === undefined || ids === undefined)
    return sendJson(response, 400, { error: `no run ${run} in this report` });
  const named = [
    ...feedback.reviews.map((review) => review.run_id),
    ...(feedback.skeval?.labels ?? []).map((label) => label.run_id),
  ];
  const unknown = [...new Set(named.filter((id) => !ids.has(id)))];
  if (unknown.length) {
    return sendJson(response, 400, {
      error: `no case run ${unknown.slice(0, 3).join(', ')} in ${relative(cwd, runDir) || runDir}`,
    });
  }
  const existing = await readFeedback(runDir);
  if (existing.status === 'invalid') {
    return sendJson(response, 409, { error: `${existing.problem}; move it away to save new reviews` });
  }
  await writeFeedback(runDir, feedback);
  return sendJson(response, 200, { ok: true, path: relative(cwd, join(runDir, feedbackFileName)) });
}
