import { caseRunFiles, reviewRunIdOf, type StoredCaseRun } from '@skeval/run-folder';
import { childPath, pathBelow } from '@skeval/run-folder/internal';
import type { ReportCaseRun } from '../report-data.js';
import { excerptOf, type ReportBounds, type RunShare } from './bounds.js';
import { conversationOf } from './conversation.js';
import { firstProblemOf } from './first-problem.js';
import { runPassRateOf } from './overview.js';
import { type PendingImage, readOutputs } from './read-outputs.js';
import { traceViewOf } from './trace-view.js';

const withConversation = (turns: ReportCaseRun['conversation']) => (turns ? { conversation: turns } : {});

function responseOf(run: StoredCaseRun): string {
  return run.response === undefined ? run.trace.final_text : run.response.replace(/\n$/, '');
}

/** One case run as the page shows it, and the images its outputs show (for `inlineImages`). */
export async function reportCaseRunOf(
  run: StoredCaseRun,
  runDir: string,
  share: RunShare,
  bounds: ReportBounds,
): Promise<{ caseRun: ReportCaseRun; images: PendingImage[] }> {
  const { grading, timing, trace } = run;
  const rows = grading.assertion_results;
  const evidenceChars = Math.max(200, Math.floor(share.evidence / Math.max(1, rows.length)));
  const outputs = await readOutputs({
    outputsDir: childPath(run.dir, caseRunFiles.outputs),
    textBudget: share.outputs,
    maxFiles: bounds.outputFiles,
  });
  const { passed, failed, errored, skipped, total } = grading.summary;
  const caseRun: ReportCaseRun = {
    reviewId: reviewRunIdOf(runDir, run.dir),
    arm: run.arm,
    runNumber: run.runNumber,
    dir: pathBelow(runDir, run.dir),
    status: grading.agent_error ? (grading.agent_error.code === 'agent_timeout' ? 'timeout' : 'error') : 'ok',
    error: grading.agent_error ?? null,
    summary: { passed, failed, errored, skipped, total, passRate: runPassRateOf(run) },
    assertions: rows.map((row, index) => ({
      index,
      text: excerptOf(row.text, 1_000),
      status: row.status,
      evidence: excerptOf(row.evidence, evidenceChars),
      grader: row.grader ?? null,
      id: row.id ?? null,
      ...(row.turn ? { turn: row.turn } : {}),
    })),
    ...withConversation(conversationOf(trace, share.response)),
    response: excerptOf(responseOf(run), share.response),
    outputs: outputs.files,
    outputsOmitted: outputs.omitted,
    trace: traceViewOf(trace, {
      budget: share.trace,
      ...(timing.executor_start ? { startedAt: timing.executor_start } : {}),
    }),
    timing: {
      durationMs: timing.duration_ms,
      inputTokens: timing.input_tokens ?? null,
      outputTokens: timing.output_tokens ?? null,
      cachedInputTokens: timing.cached_input_tokens ?? null,
      totalTokens: timing.total_tokens,
      costUsd: timing.cost_usd ?? null,
      model: timing.model ?? null,
    },
    judge: grading.judge
      ? {
          model: grading.judge.model,
          calls: grading.judge.calls,
          tokens: grading.judge.usage.total_tokens,
          costUsd: grading.judge.usage.cost_usd ?? null,
        }
      : null,
    skillEdited: grading.skill_edited !== undefined,
    network: run.contextManifest.sandbox
      ? {
          mode: run.contextManifest.sandbox.network,
          blocked: (run.contextManifest.sandbox.blocked_connections ?? []).map(
            (entry) =>
              `${entry.host.includes(':') ? `[${entry.host}]` : entry.host}:${entry.port}${entry.tool_call ? ` (${entry.tool_call})` : ''}`,
          ),
        }
      : null,
  };
  const problem = firstProblemOf(caseRun, (index) => rows[index]?.evidence ?? '');
  if (problem) caseRun.problem = problem;
  return { caseRun, images: outputs.images };
}
