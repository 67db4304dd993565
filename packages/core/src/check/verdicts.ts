import type { AssertionResult, CheckedAssertion } from '@skeval/schema';
import type { AssertionReads } from './assertion-reads.js';
import { fileTarget, responseTarget } from './mutants.js';

type Row = Pick<AssertionResult, 'status' | 'evidence'>;

/** Everything one assertion was graded on, in the order the check graded it. */
export interface AssertionEvidence {
  index: number;
  text: string;
  reads: AssertionReads;
  /** Where the reference came from; undefined without one. */
  referenceSource?: string;
  /** Its row on the reference; undefined without a reference, or when the reference cannot decide it. */
  reference?: Row;
  /** Why the reference could not decide it, when `reference` is undefined but a reference exists. */
  referenceGap?: string;
  /** Its rows on the null agents: `null-empty`, `null-echo`. */
  nulls: ReadonlyArray<{ name: string; row: Row }>;
  /** Its rows on the mutants (only those it was decided on: a skipped judged claim is left out). */
  mutants: ReadonlyArray<{ id: string; kind: string; target: string; row: Row }>;
  /** The case's reference id in `evals/reference/`, for the hint of a case without one. */
  caseFolder: string;
}

const decided = (row: Row | undefined): boolean | null =>
  row?.status === 'pass' ? true : row?.status === 'fail' ? false : null;

/** Whether a mutant of `target` changes what the assertion reads. */
export function readsTarget(reads: AssertionReads, target: string): boolean {
  if (target === responseTarget) return reads.response;
  if (reads.files === 'any') return target.startsWith('outputs/');
  return reads.files.some((path) => fileTarget(path) === target);
}

/**
 * The verdict on one assertion, with why: `broken` when the reference fails it, `vacuous` when a
 * null agent passes it, `weak` when it passes every mutant of what it reads, `unchecked` when
 * what would decide it is missing, `ok` otherwise.
 */
export function verdictOf(evidence: AssertionEvidence): CheckedAssertion {
  const { index, text, reads } = evidence;
  const skipped = [evidence.reference, ...evidence.nulls.map((entry) => entry.row)].find(
    (row) => row?.status === 'skipped',
  );
  const passesReference = decided(evidence.reference);
  const nullPass = evidence.nulls.find((entry) => entry.row.status === 'pass');
  const passesNull = nullPass
    ? true
    : evidence.nulls.length > 0 && evidence.nulls.every((entry) => entry.row.status === 'fail')
      ? false
      : null;
  const result = (verdict: CheckedAssertion['verdict'], why: string): CheckedAssertion => ({
    index,
    text,
    passes_reference: passesReference,
    passes_null: passesNull,
    verdict,
    why,
  });
  if (skipped) return result('unchecked', `a judged claim, not judged: ${skipped.evidence}`);
  if (passesReference === false)
    return result(
      'broken',
      `fails on the reference (${evidence.referenceSource}): ${evidence.reference?.evidence}; the eval, not the skill, is wrong: fix the assertion or the reference`,
    );
  if (nullPass) {
    if (reads.guard)
      return result(
        'unchecked',
        `a safety guard: it holds for an agent that does nothing (${nullPass.name}), by design, so the check cannot tell it from a vacuous one`,
      );
    return result(
      'vacuous',
      `passes on the null agent (${describeNull(nullPass.name)}): ${nullPass.row.evidence}; it accepts an agent that did nothing: check something only a right answer has`,
    );
  }
  if (passesNull === null) {
    const failed = evidence.nulls.find((entry) => entry.row.status === 'error');
    return result('unchecked', `not decided on the null agent: ${failed?.row.evidence ?? 'not graded'}`);
  }
  if (passesReference === null) {
    if (evidence.reference?.status === 'error')
      return result('unchecked', `not decided on the reference: ${evidence.reference.evidence}`);
    return result(
      'unchecked',
      evidence.referenceGap ??
        `fails on the null agent, but the case has no reference to show a good answer passes it: write evals/reference/${evidence.caseFolder}/response.md and outputs/, or take one from a run (--reference-from)`,
    );
  }
  // A file's content mutants: deleting it shows only that the check needs the file, not that it reads it.
  const relevant = evidence.mutants.filter(
    (mutant) => mutant.kind !== 'file-deleted' && readsTarget(reads, mutant.target),
  );
  const killed = relevant.filter((mutant) => mutant.row.status === 'fail');
  const deletedKills = evidence.mutants.some(
    (mutant) => mutant.kind === 'file-deleted' && readsTarget(reads, mutant.target) && mutant.row.status === 'fail',
  );
  if (relevant.length === 0 && deletedKills)
    return result('ok', 'passes the reference, fails on the null agent, and fails when its file is deleted');
  if (relevant.length === 0)
    return result('ok', 'passes the reference, fails on the null agent; no mutant changes what it reads');
  if (killed.length === 0)
    return result(
      'weak',
      `passes the reference and ${relevant.length === 1 ? 'the one mutant' : `every one of the ${relevant.length} mutants`} of what it reads (${[...new Set(relevant.map((mutant) => mutant.target))].join(', ')}): it cannot tell these wrong answers from the right one; check the value itself, not just its presence`,
    );
  return result(
    'ok',
    `passes the reference, fails on the null agent, kills ${killed.length} of ${relevant.length} mutant${relevant.length === 1 ? '' : 's'} of what it reads`,
  );
}

function describeNull(name: string): string {
  return name === 'null-echo'
    ? 'the prompt echoed back, the workspace untouched'
    : 'an empty response, the workspace untouched';
}
