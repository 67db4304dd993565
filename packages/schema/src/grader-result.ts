import type { GraderResult } from './assert-io.js';

type Assertion = GraderResult['assertions'][number];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScore = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= 1;
const optionalScore = (value: unknown): value is number | undefined => value === undefined || isScore(value);
const optionalString = (value: unknown): value is string | undefined =>
  value === undefined || typeof value === 'string';
const isV4Assertion = (entry: unknown): entry is { text: string; passed: boolean; evidence?: string } =>
  isRecord(entry) &&
  typeof entry.text === 'string' &&
  typeof entry.passed === 'boolean' &&
  optionalString(entry.evidence);

/**
 * Reads a grader's result in either contract: agentv's v4 `{ score, assertions }`, or its v5
 * `{ pass, score?, reason?, checks? }`, which becomes v4 (each check an assertion; without
 * `score`, 1 for a pass and 0 for a fail). Returns `undefined` when the value fits neither.
 *
 * Written without zod on purpose: `skeval-assert` calls it on every custom grader's output and
 * must start in about the time of a bare Node process. It accepts exactly what
 * `graderResultSchema` and `graderResultV5Schema` accept (a test holds them together).
 */
export function parseGraderResult(value: unknown): GraderResult | undefined {
  if (!isRecord(value)) return undefined;
  const { score, assertions, details } = value;
  if (
    isScore(score) &&
    Array.isArray(assertions) &&
    assertions.every(isV4Assertion) &&
    (details === undefined || isRecord(details))
  ) {
    return {
      score,
      assertions: assertions.map(({ text, passed, evidence }) =>
        evidence === undefined ? { text, passed } : { text, passed, evidence },
      ),
      ...(details === undefined ? {} : { details }),
    };
  }
  return parseV5(value);
}

function parseV5(value: Record<string, unknown>): GraderResult | undefined {
  const { pass, score, reason, checks } = value;
  if (typeof pass !== 'boolean' || !optionalScore(score) || !optionalString(reason)) return undefined;
  if (checks !== undefined && !(Array.isArray(checks) && checks.every(isRecord))) return undefined;
  const assertions: Assertion[] = [];
  for (const [index, check] of (checks ?? []).entries()) {
    const text = check.text ?? check.name ?? check.description ?? `check ${index + 1}`;
    const passed = check.pass ?? check.passed ?? false;
    const evidence = check.reason ?? check.evidence ?? check.message;
    if (typeof text !== 'string' || typeof passed !== 'boolean' || !optionalString(evidence)) return undefined;
    assertions.push(evidence === undefined ? { text, passed } : { text, passed, evidence });
  }
  if (assertions.length === 0)
    assertions.push(
      reason === undefined
        ? { text: 'grader verdict', passed: pass }
        : { text: reason, passed: pass, evidence: reason },
    );
  return { score: score ?? (pass ? 1 : 0), assertions };
}
