import type { LoadedCase } from '@skeval/evals';
import type { AssertionResult, Grading, Trace } from '@skeval/schema';
import { passRateOf } from '@skeval/schema/internal';
import type { ResolvedGrader } from '@skeval/scripts';
import { assertionRow, gradedBy } from './assertion-row.js';
import { gradeAssertion } from './grade-assertion.js';
import { type GradingSubject, gradingSubjects } from './grading-subjects.js';
import { judgeClaims, type PendingClaim } from './judge-claims.js';
import type { JudgeSetup } from './judge-setup.js';
import { createSubjectGrading, eitherSignal } from './subject-grading.js';

export interface GradeCaseRunOptions {
  evalCase: LoadedCase;
  skill: { name: string; dir: string };
  /** How the agent's run ended. */
  run: {
    status: 'ok' | 'error' | 'timeout';
    finalText: string;
    trace: Trace;
    error?: { code: string; message: string };
    /** When the agent started (ISO 8601), for the graders' `start_time`. */
    startedAt?: string;
  };
  /** The folder holding what the run left (the workspace, or a stored `outputs/`). */
  workspaceDir: string;
  /** Files the run created or changed, relative to `workspaceDir`: the judge sees these. */
  outputs: string[];
  judge: JudgeSetup;
  env?: NodeJS.ProcessEnv;
  /** Time limit of a custom grader. @default 30000 */
  graderTimeoutMs?: number;
  /** The graders the case names, resolved (and custom ones compiled) before the agent ran. @default resolved now */
  graders?: ReadonlyMap<string, ResolvedGrader>;
  /** Applied to everything the judge is sent that the agent produced (the response, file excerpts). */
  redact?: (text: string) => string;
  signal?: AbortSignal;
  /**
   * The longest the whole grading of the case run may take, graders and judge together; what is
   * not decided by then is an `error`. @default 600000
   */
  timeLimitMs?: number;
}

const defaultTimeLimitMs = 600_000;

/**
 * Grades one case run in one pass: deterministic graders (built-in and custom) as code, then
 * every judged claim in one judge call. A run whose agent crashed or timed out is graded
 * `error` with the reason; no path leads from an error to `pass`. The whole grading has a time
 * limit: a grader or judge still working when it passes leaves an `error` that says so.
 *
 * A multi-turn case is graded in groups, one judge call each: every turn with assertions of its
 * own (on that turn's response and its part of the trace), then the case's own assertions (on
 * the last response, the whole trace and the workspace). A turn's rows carry its `turn`.
 */
export async function gradeCaseRun(options: GradeCaseRunOptions): Promise<Grading> {
  const { evalCase, run } = options;
  const subjects = gradingSubjects(evalCase, run);
  const limitMs = options.timeLimitMs ?? defaultTimeLimitMs;
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(), limitMs);
  const either = eitherSignal(options.signal, limit.signal);
  const limits = { limit: limit.signal, signal: either.signal, limitMs };
  try {
    const graded: GradedSubject[] = [];
    for (const subject of subjects) graded.push(await gradeSubject(options, subject, limits));
    return finish(
      evalCase,
      graded.flatMap((entry) => entry.rows),
      mergeJudgeInfo(graded.flatMap((entry) => entry.judge ?? [])),
      run.status === 'ok' ? undefined : run.error,
    );
  } finally {
    clearTimeout(timer);
    either.release();
  }
}

interface GradedSubject {
  rows: AssertionResult[];
  judge?: NonNullable<Grading['judge']>;
}

/** One group's grading, stopped by `limit`: an assertion not decided in time is an `error` that says so. */
async function gradeSubject(
  options: GradeCaseRunOptions,
  subject: GradingSubject,
  limits: { limit: AbortSignal; signal: AbortSignal; limitMs: number },
): Promise<GradedSubject> {
  const { assertions } = subject;
  const rows = new Map<number, AssertionResult>();
  const ordered = (judge?: NonNullable<Grading['judge']>): GradedSubject => ({
    rows: assertions.map((assertion, index) => {
      const found = rows.get(index) ?? assertionRow(assertion, 'error', 'not graded', gradedBy(assertion));
      return subject.turn === undefined ? found : { ...found, turn: subject.turn };
    }),
    ...(judge ? { judge } : {}),
  });
  if (subject.notGraded) {
    for (const [index, assertion] of assertions.entries())
      rows.set(index, assertionRow(assertion, 'error', subject.notGraded, gradedBy(assertion)));
    return ordered();
  }
  const grading = createSubjectGrading(options, subject, limits);
  const claims: PendingClaim[] = [];
  for (const [index, assertion] of assertions.entries()) {
    const graded = await gradeAssertion(grading, assertion, index);
    if ('claim' in graded) claims.push({ index, assertion, claim: graded.claim });
    else rows.set(index, graded.row);
  }
  if (claims.length === 0) return ordered();
  return ordered(await judgeClaims(grading, claims, rows));
}

/** The judge step of a case run over its groups: calls, tokens and cost added up, notes kept. */
function mergeJudgeInfo(infos: ReadonlyArray<NonNullable<Grading['judge']>>): Grading['judge'] {
  const [first, ...rest] = infos;
  if (!first) return undefined;
  if (rest.length === 0) return first;
  const sum = (pick: (usage: NonNullable<Grading['judge']>['usage']) => number | null | undefined) =>
    infos.reduce((total, info) => total + (pick(info.usage) ?? 0), 0);
  const costs = infos.map((info) => info.usage.cost_usd);
  const injections = infos.flatMap((info) => info.injections ?? []);
  const notes = infos.flatMap((info) => info.notes ?? []);
  return {
    model: first.model,
    calls: infos.reduce((total, info) => total + info.calls, 0),
    ...(infos.some((info) => info.split) ? { split: true } : {}),
    usage: {
      input_tokens: sum((usage) => usage.input_tokens),
      output_tokens: sum((usage) => usage.output_tokens),
      cached_input_tokens: sum((usage) => usage.cached_input_tokens),
      total_tokens: sum((usage) => usage.total_tokens),
      cost_usd: costs.some((cost) => cost === null || cost === undefined) ? null : sum((usage) => usage.cost_usd),
    },
    ...(injections.length ? { injections } : {}),
    ...(notes.length ? { notes } : {}),
  };
}

function finish(
  evalCase: LoadedCase,
  results: AssertionResult[],
  judge?: Grading['judge'],
  agentError?: { code: string; message: string },
): Grading {
  const count = (status: AssertionResult['status']) => results.filter((result) => result.status === status).length;
  const total = results.length;
  const passed = count('pass');
  return {
    case_id: evalCase.id,
    assertion_results: results,
    expectations: results.map(({ text, passed: ok, evidence, turn }) => ({
      text,
      passed: ok,
      evidence,
      ...(turn === undefined ? {} : { turn }),
    })),
    summary: {
      passed,
      failed: count('fail'),
      errored: count('error'),
      skipped: count('skipped'),
      total,
      pass_rate: passRateOf({ passed, total, skipped: count('skipped') }),
    },
    ...(judge ? { judge } : {}),
    ...(agentError ? { agent_error: agentError } : {}),
  };
}
