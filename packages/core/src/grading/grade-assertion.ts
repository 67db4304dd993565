import type { JudgeClaim } from '@skeval/judge';
import type { AssertionResult, GraderResult } from '@skeval/schema';
import { SkevalError } from '@skeval/schema';
import type { NormalizedAssertion } from '@skeval/schema/internal';
import { buildGraderPayload, resolveGrader, runGrader } from '@skeval/scripts';
import { assertionRow } from './assertion-row.js';
import { bounded, type SubjectGrading } from './subject-grading.js';

/**
 * One assertion, graded as code by its grader (built-in or custom); or the claim the judge decides
 * instead, for a judged assertion and for a missing grader whose assertion names a fallback claim.
 */
export async function gradeAssertion(
  grading: SubjectGrading,
  assertion: NormalizedAssertion,
  index: number,
): Promise<{ row: AssertionResult } | { claim: JudgeClaim }> {
  const { options, limit } = grading;
  const started = Date.now();
  if (assertion.spec.mode === 'judge') return { claim: { id: `a${index + 1}`, text: assertion.spec.claim } };
  const { grader, config, fallbackClaim } = assertion.spec;
  if (limit.aborted) return { row: assertionRow(assertion, 'error', grading.overTime, grader) };
  const resolved = options.graders?.get(grader) ?? resolveGrader(grader, { from: options.skill.dir });
  if (resolved.kind === 'missing') {
    if (fallbackClaim) return { claim: { id: `a${index + 1}`, text: fallbackClaim } };
    return { row: assertionRow(assertion, 'error', resolved.message, grader) };
  }
  try {
    const result = await bounded(
      runGrader(resolved, graderPayloadOf(grading, config), {
        workspace: grading.workspace,
        skillDir: options.skill.dir,
        skillName: options.skill.name,
        timeoutMs: options.graderTimeoutMs ?? 30_000,
        ...(options.env ? { env: options.env } : {}),
        signal: grading.signal,
      }),
      limit,
    );
    return { row: fromGraderResult(assertion, result, grader, Date.now() - started) };
  } catch (error) {
    const message = limit.aborted
      ? grading.overTime
      : SkevalError.isInstance(error)
        ? `${error.code}: ${error.message}`
        : `grader_failed: ${error instanceof Error ? error.message : String(error)}`;
    return { row: assertionRow(assertion, 'error', message, grader, Date.now() - started) };
  }
}

/** What a grader is sent: the subject's prompt, response and trace, the case's files, and the assertion's config. */
function graderPayloadOf({ options, subject }: SubjectGrading, config: Record<string, unknown>) {
  const { evalCase } = options;
  return buildGraderPayload({
    prompt: subject.prompt,
    response: subject.response,
    ...(evalCase.expectedOutput ? { expectedOutput: evalCase.expectedOutput } : {}),
    inputFiles: evalCase.files.map((file) => file.path),
    trace: subject.trace,
    workspacePath: options.workspaceDir,
    config,
    ...(evalCase.metadata ? { metadata: evalCase.metadata } : {}),
    ...(options.run.startedAt ? { startedAt: options.run.startedAt } : {}),
  });
}

function fromGraderResult(
  assertion: NormalizedAssertion,
  result: GraderResult,
  grader: string,
  durationMs: number,
): AssertionResult {
  const passed = result.score >= 0.5;
  const [only, ...others] = result.assertions;
  const evidence =
    only && others.length === 0
      ? (only.evidence ?? (only.passed ? 'passed' : 'failed'))
      : `score ${result.score}: ${result.assertions.map((entry) => `${entry.passed ? '✓' : '✗'} ${entry.text}${entry.evidence ? ` (${entry.evidence})` : ''}`).join('; ')}`;
  return assertionRow(assertion, passed ? 'pass' : 'fail', evidence, grader, durationMs);
}
