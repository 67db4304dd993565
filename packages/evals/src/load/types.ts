import type { NormalizedAssertion, Setup } from '@skeval/schema/internal';
import type { EvalsIssue } from './issues.js';

/** A file the workspace starts with: copied from the skill folder, or written from inline content. */
export interface CaseFile {
  path: string;
  content?: string;
}

/** A case's known-good end state, as its `reference` key gives it. */
export interface CaseReference {
  response?: string;
  /** A folder in the skill (paths from the skill folder; `evals/`-relative paths also resolve). */
  files?: string;
}

/** One turn of a case: what the user says, and the assertions graded on that turn's response. */
export interface CaseTurn {
  prompt: string;
  /** This turn's own assertions (the case's `assertions` grade its end state). */
  assertions: NormalizedAssertion[];
}

/** One case of an evals file, read and checked. */
export interface LoadedCase {
  /** `String(id)` as written, or the 1-based position when the case has no id. */
  id: string;
  /** The id exactly as written (absent when the case has none). */
  rawId?: string | number;
  /** Position in `evals`. */
  index: number;
  /** A readable name: `name`, `eval_name`, or the id. */
  name: string;
  /** The task: for a multi-turn case, the first turn's prompt (every turn is in `turns`). */
  prompt: string;
  /**
   * The turns, in order: one for a single-prompt case, several for a multi-turn case (`prompt` as
   * an array, `turns`, or `prompt_sequence`), each continuing the same agent session. The loader
   * always sets it; a case made by hand may leave it out (one turn: `prompt`, no assertions of its own).
   */
  turns?: CaseTurn[];
  expectedOutput?: string;
  description?: string;
  files: CaseFile[];
  setup?: Setup;
  /** Hosts (`host` or `host:port`) the agent may reach in this case besides its model (`allow_hosts`). */
  allowHosts?: string[];
  metadata: Record<string, unknown>;
  /** The case's `reference` key: a known-good response and a folder of end-state files, for `skeval check`. */
  reference?: CaseReference;
  /**
   * A negative control: a case the skill should not change, marked `"metadata": {
   * "negative_control": true }`. Comparisons report it as held or broken instead of flagging its
   * assertions as non-discriminating. The loader always sets it; a case made by hand may leave it out.
   */
  negativeControl?: boolean;
  /**
   * Everything in `assertions` and then in `expectations`: both lists are graded. In a multi-turn
   * case these grade the end state (the last response and the workspace); each turn has its own.
   */
  assertions: NormalizedAssertion[];
  /**
   * In a file for several skills: the skills this case is for (`skill`, `target_skill`,
   * `target_skills`). Absent when the case names none: it runs for every skill the file is for.
   */
  skills?: string[];
  /** Keys Skeval does not use, kept as written. */
  extra: Record<string, unknown>;
}

/** An evals file as Skeval understood it. */
export interface LoadedEvalsFile {
  fileName: string;
  skillName?: string;
  /** True when its cases name their own skills (a file for several skills). */
  routed?: boolean;
  version?: string | number;
  cases: LoadedCase[];
  /** Top-level keys Skeval does not use, kept as written. */
  extra: Record<string, unknown>;
}

/** What loading an evals file found: the file (when it has no errors) and every issue, located. */
export interface LoadResult {
  fileName: string;
  /** Present when there are no errors. */
  evals?: LoadedEvalsFile;
  errors: EvalsIssue[];
  warnings: EvalsIssue[];
  /** Where a value (or, with `key`, its key) sits in the source; present when the file parsed. */
  locate?: (path: ReadonlyArray<string | number>, options?: { key?: boolean }) => { line: number; column: number };
}
