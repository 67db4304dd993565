import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContextManifest, Grading, Timing, Trace } from '@skeval/schema';
import type { ToolSummary } from '@skeval/schema/internal';
import { copyOutputs, type OutputLimits } from './copy-outputs.js';
import { executionMetricsOf } from './execution-metrics.js';
import { caseRunFiles } from './layout.js';
import { jsonText, stageFileAtomic, writeFileAtomic, writeJsonAtomic } from './write-atomic.js';

export interface CaseRunArtifacts {
  caseDir: string;
  finalText: string;
  trace: Trace;
  grading: Grading;
  timing: Timing;
  contextManifest: ContextManifest;
  /** The workspace and the files the run created or changed in it. */
  workspaceDir: string;
  outputs: string[];
  /** Applied to the text files copied into `outputs/`, so no secret the agent wrote lands there. */
  redact?: (text: string) => string;
  /** Files of the workspace its listing left out (it stops at 10,000), counted in the manifest. */
  unlisted?: number;
  /** How much of the run's files `outputs/` takes. @default 64 MiB a file, 256 MiB and 10,000 files in all */
  outputLimits?: OutputLimits;
}

/**
 * Writes one case run's artifacts in one pass, `grading.json` last: a case folder whose
 * artifacts all read back is complete (what `--resume` relies on); anything else is redone. The
 * six files are written together, grading.json beside its name, and renamed into place once the
 * others are; its `execution_metrics` count the text copied into `outputs/` as it was copied.
 */
export async function writeCaseRun(artifacts: CaseRunArtifacts): Promise<void> {
  const { caseDir } = artifacts;
  await freshFolder(caseDir);
  const outputsDir = join(caseDir, caseRunFiles.outputs);
  await mkdir(outputsDir);
  const { skipped, unnamed, textChars } = await copyOutputs({
    workspaceDir: artifacts.workspaceDir,
    outputsDir,
    paths: artifacts.outputs,
    ...(artifacts.redact ? { redact: artifacts.redact } : {}),
    ...(artifacts.outputLimits ? { limits: artifacts.outputLimits } : {}),
    ...(artifacts.unlisted ? { unlisted: artifacts.unlisted } : {}),
  });
  const contextManifest = {
    ...artifacts.contextManifest,
    ...(skipped.length ? { outputs_skipped: skipped } : {}),
    ...(unnamed ? { outputs_skipped_unnamed: unnamed } : {}),
  };
  const metrics = await executionMetricsOf({
    trace: artifacts.trace,
    outputsDir,
    agentFailed: artifacts.grading.agent_error !== undefined,
    outputChars: textChars,
  });
  const grading = stageFileAtomic(
    join(caseDir, caseRunFiles.grading),
    jsonText({ ...artifacts.grading, execution_metrics: metrics }),
  );
  // The folder exists now; the files are independent, grading.json alone must come last.
  const inFolder = { ensureFolder: false };
  const text = artifacts.finalText;
  const others = Promise.all([
    writeFileAtomic(
      join(caseDir, caseRunFiles.response),
      text.endsWith('\n') || text === '' ? text : `${text}\n`,
      inFolder,
    ),
    writeJsonAtomic(join(caseDir, caseRunFiles.trace), artifacts.trace, inFolder),
    writeJsonAtomic(join(caseDir, caseRunFiles.toolSummary), toolSummaryOf(artifacts.trace), inFolder),
    writeJsonAtomic(join(caseDir, caseRunFiles.contextManifest), contextManifest, inFolder),
    writeJsonAtomic(join(caseDir, caseRunFiles.timing), artifacts.timing, inFolder),
  ]);
  const [staged, written] = await Promise.allSettled([grading, others]);
  if (staged.status === 'rejected') throw staged.reason;
  if (written.status === 'rejected') {
    await staged.value.discard();
    throw written.reason;
  }
  await staged.value.commit();
}

/**
 * Makes the case folder, empty: a folder left by an interrupted run (partial files, temporary
 * files) is redone whole; a new one (the common case) has nothing to remove.
 */
async function freshFolder(caseDir: string): Promise<void> {
  if ((await mkdir(caseDir, { recursive: true })) !== undefined) return;
  await rm(caseDir, { recursive: true, force: true });
  await mkdir(caseDir, { recursive: true });
}

/**
 * Writes a case run's grading.json with its `execution_metrics` (from the trace and `outputs/`,
 * as skill-creator's aggregator reads them). The caller writes it last.
 */
export async function writeGrading(caseDir: string, grading: Grading, trace: Trace): Promise<Grading> {
  const metrics = await executionMetricsOf({
    trace,
    outputsDir: join(caseDir, caseRunFiles.outputs),
    agentFailed: grading.agent_error !== undefined,
  });
  const written = { ...grading, execution_metrics: metrics };
  await writeJsonAtomic(join(caseDir, caseRunFiles.grading), written, { ensureFolder: false });
  return written;
}

/** Tool use at a glance: counts by tool and by kind, errors, and the shell commands run. */
function toolSummaryOf(trace: Trace): ToolSummary {
  const byTool: Record<string, number> = {};
  const byKind: ToolSummary['by_kind'] = {};
  for (const call of trace.tool_calls) {
    byTool[call.name] = (byTool[call.name] ?? 0) + 1;
    byKind[call.kind] = (byKind[call.kind] ?? 0) + 1;
  }
  const written = trace.tool_calls.filter((call) => call.kind === 'write' || call.kind === 'edit');
  return {
    total: trace.tool_calls.length,
    by_tool: byTool,
    by_kind: byKind,
    errors: trace.tool_calls.filter((call) => call.result?.is_error).length,
    commands: trace.tool_calls.flatMap((call) => (call.command === undefined ? [] : [call.command])),
    files_written: [...new Set(written.flatMap((call) => call.paths ?? []))],
  };
}
