import { lstat, mkdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ContextManifest, Grading, Timing, ToolSummary, Trace } from '@skeval/schema';
import { executionMetricsOf } from './execution-metrics.js';
import { caseRunFiles } from './layout.js';
import { writeFileAtomic, writeJsonAtomic } from './write-atomic.js';

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
}

/**
 * Writes one case run's artifacts, `grading.json` last: a case folder whose artifacts all read
 * back is complete (what `--resume` relies on); anything else is redone.
 */
export async function writeCaseRun(artifacts: CaseRunArtifacts): Promise<void> {
  const { caseDir } = artifacts;
  // A case folder left by an interrupted run (partial files, temporary files) is redone whole.
  await rm(caseDir, { recursive: true, force: true });
  const outputsDir = join(caseDir, caseRunFiles.outputs);
  await mkdir(outputsDir, { recursive: true });
  const skipped: Array<{ path: string; reason: string }> = [];
  for (const path of artifacts.outputs) {
    await mkdir(dirname(join(outputsDir, path)), { recursive: true });
    const reason = await copyOutput(join(artifacts.workspaceDir, path), join(outputsDir, path), artifacts.redact);
    if (reason) skipped.push({ path, reason });
  }
  const contextManifest = skipped.length
    ? { ...artifacts.contextManifest, outputs_skipped: skipped }
    : artifacts.contextManifest;
  // The folder exists now; the files are independent, grading.json alone must come last.
  const inFolder = { ensureFolder: false };
  const text = artifacts.finalText;
  await Promise.all([
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
  await writeGrading(caseDir, artifacts.grading, artifacts.trace);
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

/** Files the run left larger than this are not copied into `outputs/` (they are listed instead). */
const maxOutputFileBytes = 64 * 1024 * 1024;

/**
 * Copies one file the run left, or says why not: a symlink is copied as a link (never
 * followed), a special file (a FIFO, a device) is never opened, a file past the size limit is
 * left out; a text file is redacted on the way.
 */
async function copyOutput(
  from: string,
  to: string,
  redact: ((text: string) => string) | undefined,
): Promise<string | undefined> {
  const stats = await lstat(from).catch(() => undefined);
  if (!stats) return 'gone before it could be copied';
  if (stats.isSymbolicLink()) {
    await symlink(await readlink(from), to).catch(() => undefined);
    return undefined;
  }
  if (!stats.isFile()) return `a ${stats.isFIFO() ? 'FIFO' : 'special file'}, not copied`;
  if (stats.size > maxOutputFileBytes)
    return `${stats.size} bytes, over the ${maxOutputFileBytes}-byte limit of outputs/`;
  const content = await readFile(from);
  const text = content.includes(0) ? undefined : content.toString('utf8');
  await writeFile(to, text !== undefined && redact ? redact(text) : content);
  return undefined;
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
