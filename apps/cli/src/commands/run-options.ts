import { agentOptions } from '../option-groups/agent-options.js';
import { configOption } from '../option-groups/config-file.js';
import { containmentOptions } from '../option-groups/containment-options.js';
import { judgeOptions, judgeRequestOptions } from '../option-groups/judge-options.js';
import { outputOptions } from '../option-groups/output-options.js';
import {
  collect,
  nonNegativeInteger,
  numberBetween,
  type OptionTable,
  type OptionValues,
  positiveInteger,
  positiveNumber,
} from '../options.js';
import { reportOptions } from '../reporter-flag.js';

/** `skeval run`'s options: the one place that lists them. */
export const runOptions = {
  ...configOption,
  ...agentOptions,
  ...containmentOptions,
  ...judgeOptions,
  ...judgeRequestOptions,
  concurrency: { flags: '--concurrency <n>', description: 'case runs at a time', parse: positiveInteger, default: 4 },
  timeout: {
    flags: '--timeout <seconds>',
    description: "each case run's time limit",
    parse: positiveNumber,
    default: 600,
  },
  ...outputOptions,
  matrix: {
    flags: '--matrix <file>',
    description:
      'run every case in each configuration of this JSON or YAML file ([{ name, agent, model?, agentBin?, agentCommand?, env? }, …]), one run folder each inside one matrix run folder (docs/matrix.md)',
  },
  iteration: { flags: '--iteration <name>', description: 'group runs under iteration-<name>/' },
  shard: {
    flags: '--shard <i/n>',
    description:
      'run shard i of n: whole cases (every arm and run) by a hash of skill and case id, for skeval merge (else SKEVAL_SHARD, or JOB_COMPLETION_INDEX with SKEVAL_SHARD_TOTAL)',
  },
  skill: { flags: '--skill <name>', description: 'run only this skill (repeatable)', parse: collect, default: [] },
  case: { flags: '--case <id>', description: 'run only this case (repeatable)', parse: collect, default: [] },
  compare: {
    flags: '--compare',
    description: 'run every case with the skill and without it, and measure the difference',
  },
  baseline: {
    flags: '--baseline <skill-dir>',
    description: 'compare with another version of the skill instead (arm old_skill)',
  },
  runs: { flags: '--runs <n>', description: 'repeat each arm n times', parse: positiveInteger, default: 1 },
  extraSkill: {
    flags: '--extra-skill <path>',
    description: 'install a distractor skill in every arm (repeatable)',
    parse: collect,
    default: [],
  },
  resume: {
    flags: '--resume <run-dir>',
    description: 'finish a run folder (or latest, latest~N): skip case runs whose artifacts are complete',
  },
  allowTodo: {
    flags: '--allow-todo',
    description: "run cases whose prompt is still skeval init's TODO placeholder (refused by default)",
  },
  keepWorkspaces: {
    flags: '--keep-workspaces',
    description: 'keep each case run workspace (its path is in context-manifest.json)',
  },
  detect: {
    flags: '--detect <points>',
    description:
      'with --dry-run after a compared run: the cases × trials needed to detect a Δ of this many points at 80% power (default 10)',
    parse: numberBetween(0.1, 100, 'percentage points above 0, up to 100, such as 10'),
  },
  dryRun: {
    flags: '--dry-run',
    description:
      'discover and validate everything, then print how many agent runs and judge calls a run would make, and what the judge would cost; run nothing',
  },
  minPassRate: {
    flags: '--min-pass-rate <rate>',
    description:
      "fail (exit 1) when the with_skill arm's pass rate is below this, from 0 to 1 (replaces: every assertion passes)",
    parse: numberBetween(0, 1, 'a pass rate from 0 to 1, such as 0.8'),
  },
  minDelta: {
    flags: '--min-delta <points>',
    description:
      "fail (exit 1) when the lower end of the delta's 95% interval is below this many percentage points (needs --compare or --baseline)",
    parse: numberBetween(-100, 100, 'percentage points from -100 to 100, such as 5'),
  },
  maxErrors: {
    flags: '--max-errors <n>',
    description: 'allow this many errors (agent errors and errored assertions) before exiting 3 (default 0)',
    parse: nonNegativeInteger,
  },
  maxCostUsd: {
    flags: '--max-cost-usd <dollars>',
    description:
      'start no case run that would take the agent and judge cost past this; the run ends with what finished (exit 3)',
    parse: positiveNumber,
  },
  ...reportOptions,
} as const satisfies OptionTable;

export type RunFlags = OptionValues<typeof runOptions>;
