import { type JudgeCaseInput, type JudgeCaseResult, type JudgeClaim, judgeCase } from '@skeval/judge';
import { type JudgeFile, skipClaims } from '@skeval/judge/internal';
import type { AssertionResult, Grading } from '@skeval/schema';
import type { NormalizedAssertion } from '@skeval/schema/internal';
import type { WorkspaceReader } from '@skeval/scripts/internal';
import { assertionRow } from './assertion-row.js';
import { escalateClaims } from './escalate-claims.js';
import type { JudgeSetup } from './judge-setup.js';
import { type ClaimVerdict, combineSamples, judgeInfoOf } from './sampled-verdicts.js';
import { bounded, type SubjectGrading } from './subject-grading.js';

/** A judged claim and the assertion whose row its verdict settles. */
export interface PendingClaim {
  index: number;
  assertion: NormalizedAssertion;
  claim: JudgeClaim;
}

const excerptChars = 4000;

/** One judge call of the subject's claims: a sample, with its template, of `model` (the setup's own by default). */
export type AskJudge = (
  claims: JudgeClaim[],
  call?: { sample?: number; template?: number; model?: NonNullable<JudgeSetup['model']> },
) => Promise<JudgeCaseResult | undefined>;

/**
 * Settles the subject's claims in `rows`: skipped when no judge model is configured, an `error`
 * for each when the time limit passes first. With `samples` k > 1 the claims are asked k times,
 * one call per sample (templates rotated), and each row keeps the votes, their majority (a tie
 * is `error`) and the flip rate; with an escalation judge, claims whose samples disagree or that
 * the judge could not decide are asked again of it. Returns the judge step as grading.json has it.
 */
export async function judgeClaims(
  grading: SubjectGrading,
  claims: PendingClaim[],
  rows: Map<number, AssertionResult>,
): Promise<NonNullable<Grading['judge']> | undefined> {
  const { options } = grading;
  const { judge } = options;
  const claimList = claims.map((entry) => entry.claim);
  if (!judge.model) {
    settleClaims(claims, skipClaims(claimList, judge.skipReason ?? 'no judge model is configured'), rows);
    return undefined;
  }
  const model = judge.model;
  const samples = judge.samples ?? 1;
  const templates = judge.templates ?? 1;
  const ask = askJudge(grading, judgeInput(grading, claimList), model);
  const results: JudgeCaseResult[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    const result = await ask(claimList, samples > 1 ? { sample, template: sample % templates } : {});
    if (!result) {
      settleClaims(claims, [], rows, grading.overTime);
      return undefined;
    }
    results.push(result);
  }
  const verdicts = combineSamples(claimList, results, samples > 1 ? templates : 1);
  const escalation = judge.escalate
    ? await escalateClaims({
        claims: claimList,
        verdicts,
        ask,
        model: judge.escalate,
        firstModel: results[0]?.model ?? '',
      })
    : undefined;
  if (escalation === null) {
    settleClaims(claims, [], rows, grading.overTime);
    return undefined;
  }
  settleClaims(claims, verdicts, rows);
  return judgeInfoOf(results, { samples, templates, ...(escalation ? { escalation } : {}) });
}

/** Asks the judge (or `call.model`) about some of the subject's claims, within the grading's time limit; undefined when it passed. */
function askJudge(grading: SubjectGrading, input: JudgeCaseInput, model: NonNullable<JudgeSetup['model']>): AskJudge {
  const { judge } = grading.options;
  return async (claims, call = {}) => {
    if (grading.limit.aborted) return undefined;
    const judged = judgeCase(
      { ...input, claims },
      {
        model: call.model ?? model,
        cache: judge.cache ?? false,
        ...(judge.retries === undefined ? {} : { retries: judge.retries }),
        ...(judge.timeoutMs === undefined ? {} : { timeoutMs: judge.timeoutMs }),
        signal: grading.signal,
        ...(call.sample === undefined ? {} : { sample: call.sample, temperature: 1 }),
        ...(call.template ? { template: call.template } : {}),
      },
    );
    return bounded(judged, grading.limit).catch((error: unknown) => {
      if (grading.limit.aborted) return undefined;
      throw error;
    });
  };
}

/** What the judge is shown of the subject: the task, the expected output, the response and the files, redacted. */
function judgeInput(grading: SubjectGrading, claims: JudgeClaim[]): JudgeCaseInput {
  const { options, subject } = grading;
  const redact = options.redact ?? ((text: string) => text);
  return {
    prompt: subject.prompt,
    ...(options.evalCase.expectedOutput ? { expectedOutput: options.evalCase.expectedOutput } : {}),
    response: redact(subject.response),
    files: judgeFiles(grading.workspace, options.outputs, redact),
    claims,
  };
}

/** Each judged claim's row, from the verdict at its position; a claim without one is an `error`. */
function settleClaims(
  claims: readonly PendingClaim[],
  verdicts: ReadonlyArray<ClaimVerdict | { status: AssertionResult['status']; evidence: string }>,
  rows: Map<number, AssertionResult>,
  missing = 'the judge gave no verdict for this claim',
): void {
  claims.forEach((entry, at) => {
    const verdict: ClaimVerdict = verdicts[at] ?? { status: 'error', evidence: missing };
    const row = assertionRow(entry.assertion, verdict.status, verdict.evidence, 'judge');
    rows.set(entry.index, { ...row, ...('extra' in verdict ? verdict.extra : {}) });
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
