import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ContextManifest, Grading, Timing, ToolSummary, Trace } from '@skeval/schema';
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
  for (const path of artifacts.outputs) {
    await mkdir(dirname(join(outputsDir, path)), { recursive: true });
    await copyOutput(join(artifacts.workspaceDir, path), join(outputsDir, path), artifacts.redact);
  }
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
    writeJsonAtomic(join(caseDir, caseRunFiles.contextManifest), artifacts.contextManifest, inFolder),
    writeJsonAtomic(join(caseDir, caseRunFiles.timing), artifacts.timing, inFolder),
  ]);
  await writeJsonAtomic(join(caseDir, caseRunFiles.grading), artifacts.grading, inFolder);
}

/** Copies one file the run left; a text file is redacted on the way (a binary one is copied as it is). */
async function copyOutput(from: string, to: string, redact: ((text: string) => string) | undefined): Promise<void> {
  const copy = { dereference: false, errorOnExist: false, force: true };
  if (redact) {
    const content = await readFile(from).catch(() => undefined);
    if (content && !content.includes(0)) {
      const text = content.toString('utf8');
      const redacted = redact(text);
      if (redacted !== text) return writeFile(to, redacted);
    }
  }
  await cp(from, to, copy).catch(() => undefined);
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
