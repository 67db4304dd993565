import { type JudgeCaseResult, type JudgeClaim, judgeCase } from '@skeval/judge';
import { type JudgeFile, skipClaims } from '@skeval/judge/internal';
import type { AssertionResult, Grading } from '@skeval/schema';
import type { NormalizedAssertion } from '@skeval/schema/internal';
import type { WorkspaceReader } from '@skeval/scripts/internal';
import { assertionRow } from './assertion-row.js';
import { bounded, type SubjectGrading } from './subject-grading.js';

/** A judged claim and the assertion whose row its verdict settles. */
export interface PendingClaim {
  index: number;
  assertion: NormalizedAssertion;
  claim: JudgeClaim;
}

const excerptChars = 4000;

/**
 * Settles the subject's claims in `rows` with one judge call: skipped when no judge model is
 * configured, an `error` for each when the time limit passes first. Returns the judge step's
 * model, calls and usage when the judge answered.
 */
export async function judgeClaims(
  grading: SubjectGrading,
  claims: PendingClaim[],
  rows: Map<number, AssertionResult>,
): Promise<NonNullable<Grading['judge']> | undefined> {
  const { options, subject, limit } = grading;
  const { evalCase, judge } = options;
  const claimList = claims.map((entry) => entry.claim);
  if (!judge.model) {
    settleClaims(claims, skipClaims(claimList, judge.skipReason ?? 'no judge model is configured'), rows);
    return undefined;
  }
  if (limit.aborted) {
    settleClaims(claims, [], rows, grading.overTime);
    return undefined;
  }
  const redact = options.redact ?? ((text: string) => text);
  const judged = judgeCase(
    {
      prompt: subject.prompt,
      ...(evalCase.expectedOutput ? { expectedOutput: evalCase.expectedOutput } : {}),
      response: redact(subject.response),
      files: judgeFiles(grading.workspace, options.outputs, redact),
      claims: claimList,
    },
    {
      model: judge.model,
      cache: judge.cache ?? false,
      ...(judge.retries === undefined ? {} : { retries: judge.retries }),
      ...(judge.timeoutMs === undefined ? {} : { timeoutMs: judge.timeoutMs }),
      signal: grading.signal,
    },
  );
  const result = await bounded(judged, limit).catch((error: unknown) => {
    if (limit.aborted) return undefined;
    throw error;
  });
  if (!result) {
    settleClaims(claims, [], rows, grading.overTime);
    return undefined;
  }
  settleClaims(claims, result.verdicts, rows);
  return judgeInfoOf(result);
}

/** The judge step as `grading.json` records it. */
function judgeInfoOf(result: JudgeCaseResult): NonNullable<Grading['judge']> {
  return {
    model: result.model,
    calls: result.calls,
    ...(result.split ? { split: true } : {}),
    usage: {
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      cached_input_tokens: result.usage.cachedInputTokens,
      total_tokens: result.usage.inputTokens + result.usage.outputTokens,
      cost_usd: result.costUsd,
    },
    ...(result.injections.length ? { injections: result.injections } : {}),
    ...(result.notes.length ? { notes: result.notes } : {}),
  };
}

/** Each judged claim's row, from the verdict at its position; a claim without one is an `error`. */
function settleClaims(
  claims: readonly PendingClaim[],
  verdicts: ReadonlyArray<{ status: AssertionResult['status']; evidence: string }>,
  rows: Map<number, AssertionResult>,
  missing = 'the judge gave no verdict for this claim',
): void {
  claims.forEach((entry, at) => {
    const verdict = verdicts[at] ?? { status: 'error', evidence: missing };
    rows.set(entry.index, assertionRow(entry.assertion, verdict.status, verdict.evidence, 'judge'));
  });
}

function judgeFiles(workspace: WorkspaceReader, outputs: string[], redact: (text: string) => string): JudgeFile[] {
  return outputs.map((path) => {
    const file = workspace.readText(path);
    if (file.status === 'text')
      return {
        path: redact(path),
        size: file.size,
        excerpt: redact(file.text.slice(0, excerptChars)),
        ...(file.truncated || file.text.length > excerptChars ? { truncated: true } : {}),
      };
    return { path: redact(path), size: 'size' in file ? file.size : 0 };
  });
}
