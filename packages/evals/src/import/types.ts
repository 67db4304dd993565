/** The other tools whose eval files Skeval reads and imports. */
export const foreignFormats = ['promptfoo', 'agentv', 'vally', 'waza', 'skillgrade', 'cases'] as const;
export type ForeignFormat = (typeof foreignFormats)[number];

/** One case of an imported file, in evals.json's own words. */
export interface ImportedCase {
  id: string | number;
  /** A readable name (promptfoo's `description`). */
  name?: string;
  prompt: string;
  expected_output?: string;
  /** Paths in the skill folder, or files written inline (a waza task's `{ path, content }`). */
  files?: Array<string | { path: string; content: string }>;
  /** Files put where the case says (Vally's `environment.files` `src` → `dest`). */
  setup?: { kind: 'seeded'; sources: Array<{ from: string; to: string }> };
  /** The skill the case is for, when the file says (a promptfoo test under `tests/<skill>/`, agentv's `skill-trigger`). */
  skill?: string;
  assertions: Array<string | Record<string, unknown>>;
}

/** An evals.json made from another tool's file, with what was mapped and what could not be. */
export interface ImportResult {
  format: ForeignFormat;
  evals: { skill_name?: string; evals: ImportedCase[] };
  /** One line per mapping: `tests[0].assert[1]: llm-rubric → a judged claim`. */
  mapped: string[];
  /** One line per thing not imported, with the reason and the fix. */
  lost: string[];
}

/**
 * The files a foreign config's pattern matches (`file://tests/*.yaml`), read and parsed by the
 * caller, in path order; a match it may not read (outside the repository, too large) comes with
 * the problem instead of a value.
 */
export type ReadReferenced = (pattern: string) => Array<{ path: string; value: unknown } | ReferenceProblem>;

/** A file a foreign config names that was not read, and why (said after its path). */
interface ReferenceProblem {
  path: string;
  problem: string;
}

/**
 * The text of a file a foreign config names by path (skillgrade's `instruction` and `rubric`),
 * undefined when no such file exists (the value is then the text itself).
 */
export type ReadText = (path: string) => { text: string } | ReferenceProblem | undefined;
