import type { LoadedCase } from '@skeval/evals';
import { type JudgeClaim, type JudgeFile, judgeCase, skipClaims } from '@skeval/judge';
import type { AssertionResult, GraderResult, Grading, NormalizedAssertion, Trace } from '@skeval/schema';
import { passRateOf, SkevalError } from '@skeval/schema';
import {
  buildGraderPayload,
  createWorkspaceReader,
  type ResolvedGrader,
  resolveGrader,
  runGrader,
  type WorkspaceReader,
} from '@skeval/scripts';
import { type GradingSubject, gradingSubjects } from './grading-subjects.js';
import type { JudgeSetup } from './judge-setup.js';

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

const excerptChars = 4000;
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
  try {
    const graded: GradedSubject[] = [];
    for (const subject of subjects) graded.push(await gradeSubject(options, subject, limit.signal, limitMs));
    return finish(
      evalCase,
      graded.flatMap((entry) => entry.rows),
      mergeJudgeInfo(graded.flatMap((entry) => entry.judge ?? [])),
      run.status === 'ok' ? undefined : run.error,
    );
  } finally {
    clearTimeout(timer);
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
  limit: AbortSignal,
  limitMs: number,
): Promise<GradedSubject> {
  const { evalCase } = options;
  const { assertions } = subject;
  const rows = new Map<number, AssertionResult>();
  const ordered = (judge?: NonNullable<Grading['judge']>): GradedSubject => ({
    rows: assertions.map((assertion, index) => {
      const found = rows.get(index) ?? row(assertion, 'error', 'not graded', gradedBy(assertion));
      return subject.turn === undefined ? found : { ...found, turn: subject.turn };
    }),
    ...(judge ? { judge } : {}),
  });
  if (subject.notGraded) {
    for (const [index, assertion] of assertions.entries())
      rows.set(index, row(assertion, 'error', subject.notGraded, gradedBy(assertion)));
    return ordered();
  }
  const redact = options.redact ?? ((text: string) => text);
  const signal = options.signal ? AbortSignal.any([options.signal, limit]) : limit;
  const overTime = `not graded: the case run's grading passed its ${limitMs / 1000} s limit`;
  const workspace = createWorkspaceReader(options.workspaceDir);
  const claims: Array<{ index: number; assertion: NormalizedAssertion; claim: JudgeClaim }> = [];
  for (const [index, assertion] of assertions.entries()) {
    const started = Date.now();
    if (assertion.spec.mode === 'judge') {
      claims.push({ index, assertion, claim: { id: `a${index + 1}`, text: assertion.spec.claim } });
      continue;
    }
    if (limit.aborted) {
      rows.set(index, row(assertion, 'error', overTime, assertion.spec.grader));
      continue;
    }
    const { grader, config, fallbackClaim } = assertion.spec;
    const resolved = options.graders?.get(grader) ?? resolveGrader(grader, { from: options.skill.dir });
    if (resolved.kind === 'missing') {
      if (fallbackClaim) claims.push({ index, assertion, claim: { id: `a${index + 1}`, text: fallbackClaim } });
      else rows.set(index, row(assertion, 'error', resolved.message, grader));
      continue;
    }
    try {
      const payload = buildGraderPayload({
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
      const result = await bounded(
        runGrader(resolved, payload, {
          workspace,
          skillDir: options.skill.dir,
          skillName: options.skill.name,
          timeoutMs: options.graderTimeoutMs ?? 30_000,
          ...(options.env ? { env: options.env } : {}),
          signal,
        }),
        limit,
      );
      rows.set(index, fromGraderResult(assertion, result, grader, Date.now() - started));
    } catch (error) {
      const message = limit.aborted
        ? overTime
        : SkevalError.isInstance(error)
          ? `${error.code}: ${error.message}`
          : `grader_failed: ${error instanceof Error ? error.message : String(error)}`;
      rows.set(index, row(assertion, 'error', message, grader, Date.now() - started));
    }
  }
  if (claims.length === 0) return ordered();
  const claimList = claims.map((entry) => entry.claim);
  if (!options.judge.model) {
    settleClaims(claims, skipClaims(claimList, options.judge.skipReason ?? 'no judge model is configured'), rows);
    return ordered();
  }
  if (limit.aborted) {
    settleClaims(claims, [], rows, overTime);
    return ordered();
  }
  const judged = judgeCase(
    {
      prompt: subject.prompt,
      ...(evalCase.expectedOutput ? { expectedOutput: evalCase.expectedOutput } : {}),
      response: redact(subject.response),
      files: judgeFiles(workspace, options.outputs, redact),
      claims: claimList,
    },
    {
      model: options.judge.model,
      cache: options.judge.cache ?? false,
      ...(options.judge.retries === undefined ? {} : { retries: options.judge.retries }),
      ...(options.judge.timeoutMs === undefined ? {} : { timeoutMs: options.judge.timeoutMs }),
      signal,
    },
  );
  const result = await bounded(judged, limit).catch((error: unknown) => {
    if (limit.aborted) return undefined;
    throw error;
  });
  if (!result) {
    settleClaims(claims, [], rows, overTime);
    return ordered();
  }
  settleClaims(claims, result.verdicts, rows);
  return ordered({
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
  });
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

/** Each judged claim's row, from the verdict at its position; a claim without one is an `error`. */
function settleClaims(
  claims: ReadonlyArray<{ index: number; assertion: NormalizedAssertion }>,
  verdicts: ReadonlyArray<{ status: AssertionResult['status']; evidence: string }>,
  rows: Map<number, AssertionResult>,
  missing = 'the judge gave no verdict for this claim',
): Map<number, AssertionResult> {
  claims.forEach((entry, at) => {
    const verdict = verdicts[at] ?? { status: 'error', evidence: missing };
    rows.set(entry.index, row(entry.assertion, verdict.status, verdict.evidence, 'judge'));
  });
  return rows;
}

/** `work`, or a rejection as soon as `limit` fires: a grader or judge that ignores its signal is not waited for. */
function bounded<T>(work: Promise<T>, limit: AbortSignal): Promise<T> {
  if (limit.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    limit.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => limit.removeEventListener('abort', onAbort));
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
  return row(assertion, passed ? 'pass' : 'fail', evidence, grader, durationMs);
}

/** Who decides an assertion: the judge, or a grader by name. */
function gradedBy(assertion: NormalizedAssertion): string {
  return assertion.spec.mode === 'judge' ? 'judge' : assertion.spec.grader;
}

function row(
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
