import { lstatSync } from 'node:fs';
import { join, sep } from 'node:path';
import {
  type ContextManifest,
  contextManifestSchema,
  type Grading,
  gradingSchema,
  type RunSummary,
  type Timing,
  type Trace,
  timingSchema,
  traceSchema,
} from '@skeval/schema';
import { type Configuration, toolSummarySchema } from '@skeval/schema/internal';
import type * as z from 'zod';
import { type HashedFile, hashCaseRunFrom } from './case-run-sha.js';
import { type CaseRunFolder, caseRunFiles, childPath, labelOf, pathBelow } from './layout.js';
import { type ArtifactRead, parseJsonArtifact, readArtifactBytes, readTextArtifact } from './read-artifact.js';
import { linkBetween, refusalOf } from './read-no-links.js';

/** How a case run's agent ended: `ok` it finished, `error` it crashed or could not start, `timeout` it ran out of time. */
export type CaseRunStatus = RunSummary['cases'][number]['status'];

/** How one case run ended, as a run reports it. */
export interface CaseRunOutcome {
  skill: string;
  caseId: string;
  arm: Configuration;
  runNumber: number;
  caseDir: string;
  status: CaseRunStatus;
  grading: Grading;
  durationMs: number;
  /** True when the agent changed the installed skill (or the skill folder itself). */
  skillEdited: boolean;
  error?: { code: string; message: string };
  /** What the agent's run cost in US dollars, as timing.json has it: null when its price is unknown. */
  agentCostUsd?: number | null;
  /** Connections the sandbox's allowlist refused (`host:port`, and the tool call that tried it), as context-manifest.json records them. */
  blockedConnections?: string[];
}

/** A finished case run, every artifact read back and checked against its schema. */
export interface StoredCaseRun extends CaseRunFolder {
  grading: Grading;
  timing: Timing;
  trace: Trace;
  contextManifest: ContextManifest;
  /** `sha256:<hex>` of its artifacts and `outputs/` as read (see `hashCaseRun`); `''` when read with `{ digest: false }`. */
  artifactsSha256: string;
  /** assistant.md as read (its final line break kept), when read with `{ response: true }`. */
  response?: string;
}

/** What `readCaseRun` reads beyond the artifacts' verdicts. */
export interface ReadCaseRunOptions {
  /** Hash the artifacts and `outputs/` for `artifactsSha256` (a viewer that checks nothing need not). @default true */
  digest?: boolean;
  /** Keep assistant.md's text, read once with the rest. @default false */
  response?: boolean;
}

/**
 * What summarising a run folder needs of a case run, and all a run keeps of it once it has read
 * back: its verdicts, four figures of its timing, and of its trace only the skills it read and
 * how many tools it called. Traces, context manifests, each verdict's copy of the assertion as
 * evals.json wrote it and the execution metrics are checked as they are read and then let go:
 * ten thousand of them need not stay in memory to write benchmark.json and the reports.
 */
export interface CaseRunDigest extends CaseRunFolder {
  /** grading.json without `execution_metrics` and each row's `assertion` (left undefined), which no summary or report reads. */
  grading: Grading;
  timing: Pick<Timing, 'duration_ms' | 'total_duration_seconds' | 'total_tokens' | 'cost_usd'>;
  /** The skills the agent read (`trace.skills_read`). */
  skillsRead: readonly string[];
  /** How many tools the agent called (`trace.tool_calls.length`). */
  toolCalls: number;
  /** `sha256:<hex>` of its artifacts and `outputs/` as read. */
  artifactsSha256: string;
}

/**
 * One copy of each string the digests of a run hold: arms and trials of a case repeat the same
 * assertion texts, grader names and often the same evidence, each a separate string as read.
 */
export type SharedStrings = Map<string, string>;

/**
 * The digest of a case run read back whole; `shared` holds the strings of the digests made before
 * it. Every object is written out field by field: a spread copy of parsed JSON gets a hidden class
 * of its own in V8, which for the rows of ten thousand gradings costs more than the rows.
 */
export function digestOf(run: StoredCaseRun, shared: SharedStrings = new Map()): CaseRunDigest {
  const { timing, trace } = run;
  const { cost_usd } = timing;
  return {
    folder: run.folder,
    dir: run.dir,
    arm: run.arm,
    runNumber: run.runNumber,
    grading: digestGrading(run.grading, shared),
    timing: {
      duration_ms: timing.duration_ms,
      total_duration_seconds: timing.total_duration_seconds,
      total_tokens: timing.total_tokens,
      ...(cost_usd === undefined ? {} : { cost_usd }),
    },
    skillsRead: trace.skills_read ?? [],
    toolCalls: trace.tool_calls.length,
    artifactsSha256: run.artifactsSha256,
  };
}

/**
 * A case run's grading as its digest keeps it: no `execution_metrics`, no row's `assertion`,
 * each string once across the run (`shared`), every object written out field by field. What a
 * run holds of a case run once its grading.json is written (see 0022 and 0070).
 */
export function digestGrading(grading: Grading, shared: SharedStrings = new Map()): Grading {
  const share = (text: string) => {
    const known = shared.get(text);
    if (known !== undefined) return known;
    shared.set(text, text);
    return text;
  };
  const { judge, skill_edited, agent_error } = grading;
  return {
    case_id: grading.case_id,
    assertion_results: grading.assertion_results.map((row) => ({
      text: share(row.text),
      passed: row.passed,
      evidence: share(row.evidence),
      status: row.status,
      assertion: undefined,
      ...(row.turn === undefined ? {} : { turn: row.turn }),
      ...(row.id === undefined ? {} : { id: share(row.id) }),
      ...(row.grader === undefined ? {} : { grader: share(row.grader) }),
      ...(row.duration_ms === undefined ? {} : { duration_ms: row.duration_ms }),
      // What the judge's noise floor and escalation report read.
      ...(row.samples === undefined ? {} : { samples: row.samples }),
      ...(row.sample_templates === undefined ? {} : { sample_templates: row.sample_templates }),
      ...(row.majority === undefined ? {} : { majority: row.majority }),
      ...(row.flip_rate === undefined ? {} : { flip_rate: row.flip_rate }),
      ...(row.escalation === undefined ? {} : { escalation: row.escalation }),
    })),
    expectations: grading.expectations.map((row) => ({
      text: share(row.text),
      passed: row.passed,
      evidence: share(row.evidence),
      ...(row.turn === undefined ? {} : { turn: row.turn }),
    })),
    summary: grading.summary,
    ...(judge === undefined ? {} : { judge }),
    ...(skill_edited === undefined ? {} : { skill_edited }),
    ...(agent_error === undefined ? {} : { agent_error }),
  };
}

export type CaseRunRead =
  /** No grading.json: the case run never finished. */
  | { status: 'absent' }
  /**
   * Some artifact does not read back: each problem names the file, the field and what is wrong.
   * `refused`: a file or folder of the case run is a symbolic link (or not what it should be),
   * which is never read through — a forged verdict, not a run to redo.
   */
  | { status: 'invalid'; problems: string[]; refused?: true }
  | { status: 'complete'; run: StoredCaseRun };

/**
 * Reads a case run folder back; `runDir` is where messages name files from. Nothing is read
 * through a link: a case folder, arm or run folder, `outputs/` or artifact that is a symbolic
 * link refuses the case run, named. A complete one carries the digest of its artifacts.
 */
export async function readCaseRun(
  folder: CaseRunFolder,
  runDir: string,
  options: ReadCaseRunOptions = {},
): Promise<CaseRunRead> {
  // A file's label is its path from the run folder (as `labelOf` gives it), the folder's part made once.
  const inside = pathBelow(runDir, folder.dir);
  const labelFor = (file: string) => (inside ? `${inside}${sep}${file}` : file);
  const linked = linkBetween(runDir, folder.dir) ?? outputsLink(folder.dir, labelFor(caseRunFiles.outputs));
  if (linked) return { status: 'invalid', problems: [refusalOf(linked.label, linked.found)], refused: true };
  // Each file is read once: its bytes are parsed and, when the case run is complete, hashed.
  const bytes = new Map<HashedFile, Buffer>();
  const read = <Schema extends z.ZodType>(file: HashedFile, schema: Schema) => {
    const raw = readBytes(folder.dir, file, labelFor(file));
    if (raw.status === 'ok') bytes.set(file, raw.value);
    return parseJsonArtifact(raw, schema, labelFor(file));
  };
  const grading = read(caseRunFiles.grading, gradingSchema);
  if (grading.status === 'absent') return { status: 'absent' };
  const timing = read(caseRunFiles.timing, timingSchema);
  const trace = read(caseRunFiles.trace, traceSchema);
  const toolSummary = read(caseRunFiles.toolSummary, toolSummarySchema);
  const contextManifest = read(caseRunFiles.contextManifest, contextManifestSchema);
  const problemOf = (file: string, result: ArtifactRead<unknown>) =>
    result.status === 'invalid' ? [result.problem] : result.status === 'absent' ? [`${labelFor(file)}: missing`] : [];
  if (
    grading.status === 'ok' &&
    timing.status === 'ok' &&
    trace.status === 'ok' &&
    toolSummary.status === 'ok' &&
    contextManifest.status === 'ok'
  ) {
    const artifacts = { grading: grading.value, timing: timing.value, trace: trace.value };
    const response = readBytes(folder.dir, caseRunFiles.response, labelFor(caseRunFiles.response));
    if (response.status === 'invalid')
      return { status: 'invalid', problems: [response.problem], ...(response.refused ? { refused: true } : {}) };
    if (response.status === 'ok') bytes.set(caseRunFiles.response, response.value);
    const artifactsSha256 = options.digest === false ? '' : hashCaseRunFrom(folder.dir, (file) => bytes.get(file));
    const text = options.response && response.status === 'ok' ? { response: response.value.toString('utf8') } : {};
    return {
      status: 'complete',
      run: { ...folder, ...artifacts, contextManifest: contextManifest.value, artifactsSha256, ...text },
    };
  }
  const reads = [grading, timing, trace, toolSummary, contextManifest];
  const refused = reads.some((result) => result.status === 'invalid' && result.refused);
  const problems = [
    ...problemOf(caseRunFiles.grading, grading),
    ...problemOf(caseRunFiles.timing, timing),
    ...problemOf(caseRunFiles.trace, trace),
    ...problemOf(caseRunFiles.toolSummary, toolSummary),
    ...problemOf(caseRunFiles.contextManifest, contextManifest),
  ];
  return { status: 'invalid', problems, ...(refused ? { refused: true as const } : {}) };
}

/** An artifact of a case run folder, its bytes read. */
function readBytes(dir: string, file: string, label: string): ArtifactRead<Buffer> {
  return readArtifactBytes(childPath(dir, file), label);
}

/** `outputs/` when it is there and is not a folder of its own. */
function outputsLink(dir: string, label: string): { label: string; found: string } | undefined {
  try {
    const stats = lstatSync(childPath(dir, caseRunFiles.outputs));
    if (stats.isSymbolicLink()) return { label, found: 'a symbolic link' };
    if (!stats.isDirectory()) return { label, found: 'not a folder' };
  } catch {
    // No outputs/: the run left no file.
  }
  return undefined;
}

/** How a stored case run ended, from its grading.json. */
export function statusOf(grading: Grading): CaseRunStatus {
  if (!grading.agent_error) return 'ok';
  return grading.agent_error.code === 'agent_timeout' ? 'timeout' : 'error';
}

/** A stored case run as the outcome a run reports. */
export function outcomeOf(skill: string, stored: CaseRunDigest | StoredCaseRun): CaseRunOutcome {
  const { grading } = stored;
  return {
    skill,
    caseId: grading.case_id,
    arm: stored.arm,
    runNumber: stored.runNumber,
    caseDir: stored.dir,
    status: statusOf(grading),
    grading,
    durationMs: stored.timing.duration_ms,
    skillEdited: grading.skill_edited !== undefined,
    ...(grading.agent_error ? { error: grading.agent_error } : {}),
    agentCostUsd: stored.timing.cost_usd ?? null,
  };
}

/** What an agent's run left, as a stored case run replays it (an agent runner's result, in its fields). */
export interface ReplayedCaseRun {
  status: CaseRunStatus;
  finalText: string;
  trace: Trace;
  durationMs: number;
  error?: { code: string; message: string };
}

/**
 * A stored case run replayed as if its agent had just finished (the `replay` runner of
 * `skeval grade`): its response, trace and how it ended.
 */
export async function replayCaseRun(stored: StoredCaseRun, runDir: string): Promise<ReplayedCaseRun> {
  const path = join(stored.dir, caseRunFiles.response);
  const response = await readTextArtifact(path, labelOf(runDir, path));
  const finalText = response.status === 'ok' ? response.value.replace(/\n$/, '') : stored.trace.final_text;
  const error = stored.grading.agent_error;
  return {
    status: statusOf(stored.grading),
    finalText,
    trace: stored.trace,
    durationMs: stored.trace.duration_ms,
    ...(error ? { error } : {}),
  };
}
