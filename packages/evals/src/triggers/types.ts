import type { EvalsIssue } from '../load/issues.js';

/** Where a trigger query was written, as Skeval reads it. */
export const triggerShapes = [
  /** `"should_trigger": true|false` on a case inside `evals`. */
  'case-field',
  /** `"trigger_evals": { "should_trigger": [...], "should_not_trigger": [...] }`. */
  'trigger-evals-lists',
  /** `"trigger_evals": [{ "query", "should_trigger" }]` (a skill's name as `should_trigger` included). */
  'trigger-evals-array',
  /** Top-level `should_trigger` / `should_not_trigger` arrays of `{ id, prompt, expected_skill, forbidden_skills }`. */
  'top-level-lists',
  /** skill-creator's eval set: a top-level array of `{ "query", "should_trigger" }`. */
  'eval-set',
  /**
   * A list under `queries`, `cases` or `evals` (or a top-level array) of `{ "query", "expected" }`:
   * `expected` (or `expected_skill`) a boolean, a skill's name, `should_trigger`/`should_not_trigger`, or null.
   */
  'query-list',
  /**
   * waza's `trigger_tests.yaml`: `should_trigger_prompts` / `should_not_trigger_prompts` lists of
   * `{ prompt, reason, confidence }`, under the `skill` they are for.
   */
  'waza-trigger-tests',
] as const;
export type TriggerShape = (typeof triggerShapes)[number];

/** One query of a trigger set: does the skill fire on it? */
export interface TriggerQuery {
  /** Unique within the skill's trigger queries: the id as written, else `q<n>` by position. */
  id: string;
  query: string;
  /** Whether the skill under test should load for this query. */
  shouldTrigger: boolean;
  /**
   * The skill the query was written for: a skill's name, `null` for "no skill at all", absent
   * when the file does not say (then: the skill under test when `shouldTrigger`, else none).
   */
  expectedSkill?: string | null;
  /** Skills that must not load for this query. */
  forbiddenSkills: string[];
  shape: TriggerShape;
  /** The file it was read from, as shown in messages. */
  fileName: string;
  /** Where it sits: `trigger_evals.should_trigger[2]`, with line and column. */
  pointer: string;
  line: number;
  column: number;
}

/** What reading one file's trigger sets found. */
export interface TriggerSetLoad {
  fileName: string;
  queries: TriggerQuery[];
  /** How many queries of each shape. */
  shapes: Partial<Record<TriggerShape, number>>;
  errors: EvalsIssue[];
  warnings: EvalsIssue[];
}
