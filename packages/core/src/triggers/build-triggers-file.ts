import type { TriggerQueryResult, TriggersFile } from '@skeval/schema';
import type { DescriptionComparison, TriggersSkeval } from '@skeval/schema/internal';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';
import type { DecisionBudget } from './run-trigger-query.js';
import { dormancyOf, noSkill, routingBySkill, routingMatrix, runEvalResults } from './score-triggers.js';

export interface BuildTriggersFileOptions {
  skillName: string;
  description: string;
  descriptionSource: TriggersSkeval['description_source'];
  queries: TriggerQueryResult[];
  install: ReadonlyArray<Required<SkillToInstall>>;
  runId: string;
  agent: string;
  model: string | null;
  runs: number;
  threshold: number;
  budget: DecisionBudget;
  earlyStop: boolean;
  comparison?: DescriptionComparison;
}

/** `triggers.json`: run_eval.py's `results`/`summary`, and Skeval's routing under `skeval`. */
export function buildTriggersFile(options: BuildTriggersFileOptions): TriggersFile {
  const { queries, skillName } = options;
  const matrix = routingMatrix(queries, skillName);
  const skills = [...new Set([skillName, ...matrix.rows, ...matrix.columns])].filter((name) => name !== noSkill);
  const runs = queries.flatMap((query) => query.runs.map((run) => ({ query, run })));
  const errors = runs.flatMap(({ query, run }) =>
    run.error && run.status === 'error' ? [{ query_id: query.id, run: run.run, ...run.error }] : [],
  );
  return {
    skill_name: skillName,
    description: options.description,
    ...runEvalResults(queries),
    skeval: {
      schema_version: 1,
      run_id: options.runId,
      agent: options.agent,
      model: options.model,
      runs_per_query: options.runs,
      trigger_threshold: options.threshold,
      decision_budget: { tool_calls: options.budget.toolCalls ?? null, seconds: options.budget.seconds ?? null },
      early_stop: options.earlyStop,
      description_source: options.descriptionSource,
      neighbourhood: options.install.map((entry) => ({
        name: entry.name,
        description: entry.name === skillName ? options.description : entry.description,
        under_test: entry.name === skillName,
      })),
      queries,
      skills: routingBySkill(queries, skills, skillName),
      matrix,
      dormancy: dormancyOf(queries),
      errors,
      excluded: queries.filter((query) => query.pass === null).map((query) => query.id),
      totals: {
        runs: runs.length,
        errors: errors.length,
        tokens: runs.reduce((sum, { run }) => sum + run.tokens, 0),
        duration_ms: runs.reduce((sum, { run }) => sum + run.duration_ms, 0),
      },
      ...(options.comparison ? { comparison: options.comparison } : {}),
    },
  };
}
