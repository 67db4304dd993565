import type { AssertionResult } from '@skeval/schema';
import type { NormalizedAssertion } from '@skeval/schema/internal';

/** An assertion's result row: its status, the evidence for it, and who decided it. */
export function assertionRow(
  assertion: NormalizedAssertion,
  status: AssertionResult['status'],
  evidence: string,
  grader: string,
  durationMs?: number,
): AssertionResult {
  return {
    text: assertion.text,
    passed: status === 'pass',
    status,
    evidence,
    assertion: assertion.source,
    ...(assertion.id ? { id: assertion.id } : {}),
    grader,
    ...(durationMs === undefined ? {} : { duration_ms: durationMs }),
  };
}

/** Who decides an assertion: the judge, or a grader by name. */
export function gradedBy(assertion: NormalizedAssertion): string {
  return assertion.spec.mode === 'judge' ? 'judge' : assertion.spec.grader;
}
