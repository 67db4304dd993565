import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Grading, Timing, Trace } from '@skeval/schema';
import { writeFileAtomic, writeJsonAtomic } from './write-atomic.js';

export interface CaseArtifacts {
  caseDir: string;
  finalText: string;
  trace: Trace;
  grading: Grading;
  timing: Timing;
  contextManifest: Record<string, unknown>;
  /** The workspace and the files the run created or changed in it. */
  workspaceDir: string;
  outputs: string[];
}

/**
 * Writes one case run's artifacts, `grading.json` last: a case folder with a readable
 * grading.json is complete (what `--resume` relies on); anything else is redone.
 */
export async function writeCaseArtifacts(artifacts: CaseArtifacts): Promise<void> {
  const { caseDir } = artifacts;
  // A case folder left by an interrupted run (partial files, temporary files) is redone whole.
  await rm(caseDir, { recursive: true, force: true });
  await mkdir(join(caseDir, 'outputs'), { recursive: true });
  for (const path of artifacts.outputs) {
    await mkdir(dirname(join(caseDir, 'outputs', path)), { recursive: true });
    await cp(join(artifacts.workspaceDir, path), join(caseDir, 'outputs', path), {
      dereference: false,
      errorOnExist: false,
      force: true,
    }).catch(() => undefined);
  }
  // The folder exists now; the files are independent, grading.json alone must come last.
  const inFolder = { ensureFolder: false };
  await Promise.all([
    writeFileAtomic(
      join(caseDir, 'assistant.md'),
      artifacts.finalText.endsWith('\n') || artifacts.finalText === ''
        ? artifacts.finalText
        : `${artifacts.finalText}\n`,
      inFolder,
    ),
    writeJsonAtomic(join(caseDir, 'trace.json'), artifacts.trace, inFolder),
    writeJsonAtomic(join(caseDir, 'tool-summary.json'), toolSummary(artifacts.trace), inFolder),
    writeJsonAtomic(join(caseDir, 'context-manifest.json'), artifacts.contextManifest, inFolder),
    writeJsonAtomic(join(caseDir, 'timing.json'), artifacts.timing, inFolder),
  ]);
  await writeJsonAtomic(join(caseDir, 'grading.json'), artifacts.grading, inFolder);
}

/** Tool use at a glance: counts by tool and by kind, errors, and the shell commands run. */
export function toolSummary(trace: Trace) {
  const byTool: Record<string, number> = {};
  const byKind: Record<string, number> = {};
  for (const call of trace.tool_calls) {
    byTool[call.name] = (byTool[call.name] ?? 0) + 1;
    byKind[call.kind] = (byKind[call.kind] ?? 0) + 1;
  }
  return {
    total: trace.tool_calls.length,
    by_tool: byTool,
    by_kind: byKind,
    errors: trace.tool_calls.filter((call) => call.result?.is_error).length,
    commands: trace.tool_calls.flatMap((call) => (call.command === undefined ? [] : [call.command])),
    files_written: [
      ...new Set(
        trace.tool_calls
          .filter((call) => call.kind === 'write' || call.kind === 'edit')
          .flatMap((call) => call.paths ?? []),
      ),
    ],
  };
}

/** Whether a case folder holds a finished case run (a grading.json that parses). */
export async function isCaseComplete(caseDir: string): Promise<boolean> {
  try {
    JSON.parse(await readFile(join(caseDir, 'grading.json'), 'utf8'));
    return true;
  } catch {
    return false;
  }
}
