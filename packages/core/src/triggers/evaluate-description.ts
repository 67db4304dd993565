import type { TriggerQuery } from '@skeval/evals/internal';
import type { TriggerQueryResult, TriggerRun } from '@skeval/schema';
import type pLimit from 'p-limit';
import type { AgentRunner } from '../runners/types.js';
import type { Containment } from '../session/containment.js';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';
import { type DecisionBudget, failedTriggerRun, runTriggerQuery } from './run-trigger-query.js';
import { scoreQuery } from './score-triggers.js';

/** Something the terminal may show while queries run. */
export type TriggersProgressEvent =
  | { type: 'query-run'; skill: string; queryId: string; run: TriggerRun; label?: string }
  | { type: 'note'; message: string };

export interface EvaluateDescriptionOptions {
  runner: AgentRunner;
  containment: Containment;
  hidden: string[];
  install: Array<Required<SkillToInstall>>;
  queries: readonly TriggerQuery[];
  /** The description to test; undefined tests the skill's own. */
  description?: string;
  runs: number;
  threshold: number;
  budget: DecisionBudget;
  earlyStop: boolean;
  timeoutMs: number;
  contextMode: 'isolated' | 'ambient';
  /** User-level skills and instruction files of the agent, copied into its home in `ambient` runs. */
  ambient: readonly string[];
  limit: ReturnType<typeof pLimit>;
  signal?: AbortSignal;
  /** Set when the run was interrupted: no more queries start. */
  isStopped: () => boolean;
  onProgress?: (event: TriggersProgressEvent) => void;
  /** Shown with each progress event (`candidate`, `round 2`). */
  label?: string;
}

/** Every query run `runs` times with one description, each query scored. */
export async function evaluateDescription(options: EvaluateDescriptionOptions): Promise<TriggerQueryResult[]> {
  const [underTest] = options.install;
  if (!underTest) return [];
  const runsOf = await Promise.all(
    options.queries.map((query) =>
      Promise.all(
        Array.from({ length: options.runs }, (_, index) =>
          options.limit(async (): Promise<TriggerRun> => {
            if (options.isStopped())
              return failedTriggerRun(index + 1, Date.now(), 'interrupted', 'not run: the run was interrupted');
            const run = await runTriggerQuery({
              runner: options.runner,
              containment: options.containment,
              hidden: options.hidden,
              install: options.install,
              ...(options.description === undefined ? {} : { description: options.description }),
              query: query.query,
              run: index + 1,
              timeoutMs: options.timeoutMs,
              earlyStop: options.earlyStop,
              budget: options.budget,
              contextMode: options.contextMode,
              ambient: options.ambient,
              ...(options.signal ? { signal: options.signal } : {}),
            });
            options.onProgress?.({
              type: 'query-run',
              skill: underTest.name,
              queryId: query.id,
              run,
              ...(options.label ? { label: options.label } : {}),
            });
            return run;
          }),
        ),
      ),
    ),
  );
  return options.queries.map((query, at) =>
    scoreQuery(query, runsOf[at] ?? [], { underTest: underTest.name, threshold: options.threshold }),
  );
}
