import {
  collect,
  nonNegativeInteger,
  numberBetween,
  type OptionTable,
  type OptionValues,
  positiveInteger,
  positiveNumber,
} from '../options.js';
import { reporterOption } from '../reporter-flag.js';

const agents = ['sdk', 'claude-code', 'codex', 'pi', 'command'] as const;

/** `skeval run`'s options: the one place that lists them. */
export const runOptions = {
  config: {
    flags: '--config <file>',
    description:
      'the config file (default: the nearest skeval.config.{ts,mts,mjs,js,json} above the path, else the current folder)',
  },
  agent: {
    flags: '--agent <name>',
    description: 'the agent (default: command with --agent-command, else claude-code)',
    choices: agents,
  },
  agentCommand: {
    flags: '--agent-command <command>',
    description: 'for --agent command: the program, with {prompt}, {prompt_file}, {workspace}',
  },
  agentBin: { flags: '--agent-bin <path>', description: "the agent CLI's executable (default: claude, codex, pi)" },
  model: { flags: '--model <model>', description: "the agent's model, as the agent names it" },
  permissionMode: {
    flags: '--permission-mode <mode>',
    description:
      'claude-code: its --permission-mode instead of skipping permission prompts (needed as root without a sandbox)',
  },
  sandbox: {
    flags: '--sandbox <kind>',
    description: 'contain each agent: bwrap (bubblewrap; the default where it works) or none',
    choices: ['bwrap', 'none'],
  },
  network: {
    flags: '--network <mode>',
    description: 'on (agents call their model) or none (no network in the sandbox)',
    choices: ['on', 'none'],
    default: 'on',
  },
  passEnv: {
    flags: '--pass-env <name>',
    description: 'pass this environment variable to the agent (repeatable); values that look like keys are redacted',
    parse: collect,
    default: [],
  },
  judge: {
    flags: '--judge <provider:model>',
    description: 'the judge model (default: .pi settings, then ANTHROPIC_API_KEY or OPENAI_API_KEY)',
  },
  judgeTimeout: {
    flags: '--judge-timeout <seconds>',
    description: "each judge request's time limit (default 60)",
    parse: positiveNumber,
  },
  judgeRetries: {
    flags: '--judge-retries <n>',
    description: 'retries of a judge request that failed in a way a retry can help (default 2)',
    parse: nonNegativeInteger,
  },
  concurrency: { flags: '--concurrency <n>', description: 'case runs at a time', parse: positiveInteger, default: 4 },
  timeout: {
    flags: '--timeout <seconds>',
    description: "each case run's time limit",
    parse: positiveNumber,
    default: 600,
  },
  outputDir: { flags: '--output-dir <dir>', description: 'where run folders go (default: <skill>/evals-runs)' },
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
  contextMode: {
    flags: '--context-mode <mode>',
    description: 'isolated (only the installed skills) or ambient (the agent may load its user skills too)',
    choices: ['isolated', 'ambient'],
    default: 'isolated',
  },
  resume: {
    flags: '--resume <run-dir>',
    description: 'finish a run folder (or latest, latest~N): skip case runs whose artifacts are complete',
  },
  keepWorkspaces: {
    flags: '--keep-workspaces',
    description: 'keep each case run workspace (its path is in context-manifest.json)',
  },
  cache: { flags: '--no-cache', description: 'send every judge request, ignoring the response cache' },
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
  reporter: reporterOption,
  json: { flags: '--json', description: 'print the result as JSON (the same as --reporter json)' },
} as const satisfies OptionTable;

export type RunFlags = OptionValues<typeof runOptions>;
