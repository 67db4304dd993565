import type { GraderResult } from './assert-io.js';

type Assertion = GraderResult['assertions'][number];

/**
 * A grader's result, read: a result to record, one that cannot be trusted (an `error` verdict
 * with the reason), or something that is not a result at all.
 */
export type GraderResultReading =
  | { status: 'ok'; result: GraderResult }
  /** Shaped like a result, but it contradicts itself or holds a value that cannot be compared. */
  | { status: 'invalid'; message: string }
  /** Neither `{ score, assertions }` nor `{ pass, … }`. */
  | { status: 'unrecognized' };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Raised while reading, caught once at the top: the first problem found is the message. */
class Invalid extends Error {}

const invalid = (message: string): never => {
  throw new Invalid(message);
};

/**
 * Reads a grader's result in either contract: agentv's v4 `{ score, assertions }`, or its v5
 * `{ pass, score?, reason?, checks? }`, which becomes v4 (each check an assertion; without
 * `score`, 1 for a pass and 0 for a fail). A v4 result without `score` is scored as agentv
 * scores it: the assertions that passed ÷ all of them (none at all is `invalid`).
 *
 * The verdict is never guessed at. When a result has `pass`, it decides, and a `score` that says
 * otherwise (a pass below 0.5, a fail at 0.5 or more) makes the result `invalid`; so do a score
 * outside 0..1 and a number anywhere that is not finite (NaN, Infinity: JSON cannot carry them,
 * a JavaScript grader can), because such a value must never be compared.
 *
 * Written without zod on purpose: `skeval-assert` calls it on every custom grader's output and
 * must start in about the time of a bare Node process. Apart from those contradictions and a v4
 * result without `score` (`graderResultSchema` is the result once scored) it accepts exactly what
 * `graderResultSchema` and `graderResultV5Schema` accept (a test holds them together).
 */
export function parseGraderResult(value: unknown): GraderResultReading {
  if (!isRecord(value) || !('pass' in value || 'assertions' in value)) return { status: 'unrecognized' };
  try {
    const nonFinite = findNonFinite(value);
    if (nonFinite) invalid(`${nonFinite.path} is ${nonFinite.value}, not a finite number`);
    return { status: 'ok', result: readResult(value) };
  } catch (error) {
    if (error instanceof Invalid) return { status: 'invalid', message: error.message };
    throw error;
  }
}

function readResult(value: Record<string, unknown>): GraderResult {
  if (!('pass' in value)) return parseV4(value);
  const { pass } = value;
  if (typeof pass !== 'boolean') return invalid(`pass is ${describe(pass)}, not true or false`);
  const score = readScore(value.score);
  // `pass` decides; a score that says the opposite is a grader that contradicts itself.
  if (score !== undefined && pass !== score >= 0.5)
    return invalid(`pass: ${pass} but score: ${score} (that score counts as a ${pass ? 'fail' : 'pass'})`);
  // A v4 result that also says `pass` (now known to agree) keeps its own assertions.
  if ('assertions' in value) {
    try {
      return parseV4(value);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
    }
  }
  return parseV5(value, pass, score);
}

/** The first number under `root` that is NaN or infinite, with where it is (`checks[0].score`). */
function findNonFinite(root: Record<string, unknown>): { path: string; value: number } | undefined {
  // Iterative, with the objects already seen: a JavaScript grader's result may be deep or cyclic.
  const pending: Array<{ path: string; value: unknown }> = [{ path: '', value: root }];
  const seen = new Set<object>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { path, value } = next;
    if (typeof value === 'number' && !Number.isFinite(value)) return { path, value };
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const entries = Array.isArray(value)
      ? value.map((entry, index): [string, unknown] => [`${path}[${index}]`, entry])
      : Object.entries(value).map(([key, entry]): [string, unknown] => [path ? `${path}.${key}` : key, entry]);
    for (const [entryPath, entry] of entries.reverse()) pending.push({ path: entryPath, value: entry });
  }
  return undefined;
}

function parseV4(value: Record<string, unknown>): GraderResult {
  const { score, assertions, details } = value;
  const given = readScore(score);
  if (!Array.isArray(assertions)) return invalid(`assertions is ${describe(assertions)}, not a list`);
  if (details !== undefined && !isRecord(details)) return invalid(`details is ${describe(details)}, not an object`);
  const parsed = assertions.map((entry: unknown, index): Assertion => {
    const where = `assertions[${index}]`;
    if (!isRecord(entry)) return invalid(`${where} is ${describe(entry)}, not an object`);
    const { text, passed, evidence } = entry;
    if (typeof text !== 'string') return invalid(`${where}.text is ${describe(text)}, not a string`);
    if (typeof passed !== 'boolean') return invalid(`${where}.passed is ${describe(passed)}, not true or false`);
    const checkedEvidence = readOptionalString(evidence, `${where}.evidence`);
    return checkedEvidence === undefined ? { text, passed } : { text, passed, evidence: checkedEvidence };
  });
  const checked = given ?? scoreOfAssertions(parsed);
  return { score: checked, assertions: parsed, ...(details === undefined ? {} : { details }) };
}

/** agentv's score of `{ assertions }` without a score: the share that passed. None to count is not a score. */
function scoreOfAssertions(assertions: Assertion[]): number {
  if (assertions.length === 0)
    return invalid('score is missing and assertions is empty: give a score from 0 to 1, or at least one assertion');
  return assertions.filter((assertion) => assertion.passed).length / assertions.length;
}

function parseV5(value: Record<string, unknown>, pass: boolean, score: number | undefined): GraderResult {
  const { reason, checks } = value;
  const checkedReason = readOptionalString(reason, 'reason');
  if (checks !== undefined && !Array.isArray(checks)) return invalid(`checks is ${describe(checks)}, not a list`);
  const assertions = (checks ?? []).map((check: unknown, index): Assertion => {
    const where = `checks[${index}]`;
    if (!isRecord(check)) return invalid(`${where} is ${describe(check)}, not an object`);
    const text = check.text ?? check.name ?? check.description ?? `check ${index + 1}`;
    const passed = check.pass ?? check.passed ?? false;
    if (typeof text !== 'string') return invalid(`${where}.text is ${describe(text)}, not a string`);
    if (typeof passed !== 'boolean') return invalid(`${where}.pass is ${describe(passed)}, not true or false`);
    const evidence = readOptionalString(check.reason ?? check.evidence ?? check.message, `${where}.reason`);
    return evidence === undefined ? { text, passed } : { text, passed, evidence };
  });
  if (assertions.length === 0)
    assertions.push(
      checkedReason === undefined
        ? { text: 'grader verdict', passed: pass }
        : { text: checkedReason, passed: pass, evidence: checkedReason },
    );
  return { score: score ?? (pass ? 1 : 0), assertions };
}

/** A score from 0 to 1, `undefined` when absent; anything else is invalid. */
function readScore(score: unknown): number | undefined {
  if (score === undefined) return undefined;
  if (typeof score !== 'number') return invalid(`score is ${describe(score)}, not a number from 0 to 1`);
  if (score < 0 || score > 1) return invalid(`score is ${score}, outside 0..1`);
  return score;
}

function readOptionalString(value: unknown, where: string): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  return invalid(`${where} is ${describe(value)}, not a string`);
}

/** `a string ("yes")`, `3`, `null`, `a list`: what a wrong value was, for the message. */
function describe(value: unknown): string {
  if (typeof value === 'string') return `a string (${JSON.stringify(value.slice(0, 40))})`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (value === undefined) return 'missing';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}
