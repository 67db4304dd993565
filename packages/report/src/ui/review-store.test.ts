import { feedbackSchema } from '@skeval/schema';
import { describe, expect, it } from 'vitest';
import type { ReportAssertion, ReportCase, ReportCaseRun } from '../report-data.js';
import {
  feedbackOf,
  labelKeyOf,
  reviewStateOf,
  withLabel,
  withLabelNote,
  withRunNote,
  withStatus,
} from './review-store.js';

const assertion = (index: number, status: ReportAssertion['status']): ReportAssertion => ({
  index,
  text: { text: `claim ${index}` },
  status,
  evidence: { text: 'because' },
  grader: 'judge',
  id: null,
});
const caseRun = (runNumber: number): ReportCaseRun => ({
  reviewId: `eval-a-with_skill-run-${runNumber}`,
  arm: 'with_skill',
  runNumber,
  dir: `eval-a/with_skill/run-${runNumber}`,
  status: 'ok',
  error: null,
  summary: { passed: 1, failed: 1, errored: 0, skipped: 0, total: 2, passRate: 0.5 },
  assertions: [assertion(0, 'pass'), assertion(1, 'fail')],
  response: { text: '' },
  outputs: [],
  outputsOmitted: 0,
  trace: { toolCalls: [], omitted: 0, messages: 0, turns: null, durationMs: 0, skillsRead: [], truncated: false },
  timing: {
    durationMs: 1,
    inputTokens: null,
    outputTokens: null,
    cachedInputTokens: null,
    totalTokens: 0,
    costUsd: null,
    model: null,
  },
  judge: null,
  skillEdited: false,
  network: null,
});
const now = '2026-12-01T10:00:00.000Z';

function fullCase(): ReportCase {
  return {
    id: 'a',
    runs: [caseRun(1), caseRun(2)],
    name: 'a',
    folder: 'eval-a',
    prompt: { text: '' },
    description: null,
    expectedOutput: null,
    files: [],
    negativeControl: false,
    passRateByArm: {},
    flaky: false,
  };
}

describe('the review store', () => {
  it("writes skill-creator's shape with the labels under skeval", () => {
    const target = fullCase();
    const first = target.runs[0];
    const second = first?.assertions[1];
    if (!first || !second) throw new Error('fixture');
    let state = reviewStateOf(null);
    state = withLabel(state, { evalCase: target, run: first, assertion: second }, 'disagree', now);
    state = withLabelNote(state, labelKeyOf(first.reviewId, 1), 'it did hold', now);
    state = withRunNote(state, first.reviewId, 'good run', now);
    const feedback = feedbackSchema.parse(feedbackOf(state, { cases: [target] }, now));
    expect(feedback).toEqual({
      reviews: [{ run_id: 'eval-a-with_skill-run-1', feedback: 'good run', timestamp: now }],
      status: 'in_progress',
      skeval: {
        version: 1,
        labels: [
          {
            run_id: 'eval-a-with_skill-run-1',
            case_id: 'a',
            arm: 'with_skill',
            run_number: 1,
            assertion_index: 1,
            assertion_text: 'claim 1',
            verdict: 'fail',
            grader: 'judge',
            label: 'disagree',
            note: 'it did hold',
            timestamp: now,
          },
        ],
      },
    });
    expect(reviewStateOf(feedback)).toEqual(state);
  });

  it('lists every case run once the review is complete, an empty note meaning nothing to say', () => {
    const state = withStatus(withRunNote(reviewStateOf(null), 'eval-a-with_skill-run-2', 'meh', now), 'complete');
    const feedback = feedbackOf(state, { cases: [fullCase()] }, now);
    expect(feedback.status).toBe('complete');
    expect(feedback.reviews.map((review) => [review.run_id, review.feedback])).toEqual([
      ['eval-a-with_skill-run-1', ''],
      ['eval-a-with_skill-run-2', 'meh'],
    ]);
    expect(feedback.skeval).toBeUndefined();
  });

  it('clears a label given twice', () => {
    const target = fullCase();
    const first = target.runs[0];
    const row = first?.assertions[0];
    if (!first || !row) throw new Error('fixture');
    const labelled = withLabel(reviewStateOf(null), { evalCase: target, run: first, assertion: row }, 'agree', now);
    expect(Object.keys(labelled.labels)).toEqual(['eval-a-with_skill-run-1#0']);
    expect(withLabel(labelled, { evalCase: target, run: first, assertion: row }, null, now).labels).toEqual({});
  });
});
