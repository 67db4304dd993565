import type { ReportCaseRun, ReportProblem } from '../report-data.js';

/** Time as a reader says it: `4 s`, `1.5 s`, `300 ms`. */
function spoken(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const secondsText = (ms / 1000).toFixed(1).replace(/\.0$/, '');
  return `${secondsText} s`;
}

const providerReasons: Record<string, string> = {
  provider_timeout: 'the judge timed out',
  provider_auth: 'the judge refused the key',
  provider_rate_limit: 'the judge was rate-limited',
  provider_server: 'the judge had a server error',
  provider_invalid_response: "the judge's reply was malformed",
  provider_context_too_long: "the claims did not fit the judge's context",
  model_not_configured: 'no judge model is configured',
};

/** The first line of a text, cut to `max` characters. */
function gist(text: string, max: number): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Why a grader failed, from its `grader_failed:` evidence. */
function graderFailure(evidence: string): string {
  const exit = /exited with code (\d+)/.exec(evidence);
  if (exit) return `grader crashed (exit code ${exit[1]})`;
  const killed = /was killed by (\w+)/.exec(evidence);
  if (killed) return `grader crashed (killed by ${killed[1]})`;
  if (/printed (nothing|something that is not JSON|a result that cannot|JSON that is neither)/.test(evidence))
    return 'grader printed no valid result';
  if (/could not start/.test(evidence)) return 'grader could not start';
  return `grader failed: ${gist(evidence.replace(/^grader_failed:\s*/, ''), 60)}`;
}

/**
 * Why an assertion could not be decided, in a few words: `grader timed out after 4 s`, `grader
 * crashed (exit code 1)`, `agent timed out`, `no grader named x`. Read from the evidence Skeval
 * writes for an `error` verdict; evidence it does not know is cut to its first 60 characters.
 */
export function errorReasonOf(evidence: string): string {
  const code = /^([a-z_]+): /.exec(evidence)?.[1];
  if (code === 'grader_timeout') {
    const regex = /regex timed out after (\d+) ms/.exec(evidence);
    if (regex) return `regex timed out after ${spoken(Number(regex[1]))}`;
    const after = /timed out after (\d+) ms/.exec(evidence);
    if (after) return `grader timed out after ${spoken(Number(after[1]))}`;
    return /regex timed out/.test(evidence) ? 'regex timed out' : 'grader timed out';
  }
  if (code === 'grader_failed') return graderFailure(evidence);
  const provider = code ? providerReasons[code] : undefined;
  if (provider) return provider;
  const missing = /^no grader named `([^`]+)`/.exec(evidence);
  if (missing) return `no grader named ${missing[1]}`;
  const notGraded = /^not graded: (.*)$/s.exec(evidence)?.[1];
  if (notGraded !== undefined) {
    if (/^the agent run timed out/.test(notGraded)) return 'agent timed out';
    if (/^the agent run failed/.test(notGraded)) return 'agent crashed';
    if (/^the agent timed out in this turn/.test(notGraded)) return 'agent timed out in this turn';
    if (/^the agent failed in this turn/.test(notGraded)) return 'agent crashed in this turn';
    const turn = /^turn (\d+) did not run/.exec(notGraded);
    if (turn) return `turn ${turn[1]} did not run`;
    const limit = /passed its ([\d.]+ s) limit/.exec(notGraded);
    if (limit) return `grading passed its ${limit[1]} limit`;
    return gist(notGraded, 60);
  }
  return gist(evidence, 60);
}

/**
 * A case run's first verdict that did not pass (a fail or an error, in the order of its
 * assertions) with a short reason, or how the agent ended when it crashed with nothing graded.
 * `undefined` when nothing failed.
 */
export function firstProblemOf(
  run: Pick<ReportCaseRun, 'assertions' | 'error' | 'status'>,
  evidenceOf: (index: number) => string,
): ReportProblem | undefined {
  const row = run.assertions.find((entry) => entry.status === 'fail' || entry.status === 'error');
  if (row) {
    const evidence = evidenceOf(row.index);
    const status = row.status === 'fail' ? 'fail' : 'error';
    const reason = status === 'fail' ? gist(evidence, 80) || 'failed' : errorReasonOf(evidence);
    return { index: row.index, status, text: gist(row.text.text, 80), reason };
  }
  if (run.status === 'ok') return undefined;
  const reason = run.status === 'timeout' ? 'agent timed out' : `agent crashed: ${gist(run.error?.message ?? '', 60)}`;
  return { index: null, status: 'error', text: '', reason };
}
