import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { EvalsIssue } from '@skeval/evals';
import type { TriggerQuery } from '@skeval/evals/internal';
import type { LanguageModel } from '@skeval/judge';
import { writeFileAtomic, writeJsonAtomic } from '@skeval/run-folder';
import type { TriggerQueryResult, TriggersFile, TriggersHistory } from '@skeval/schema';
import pLimit from 'p-limit';
import { renderTriggersMarkdown } from '../reporters/triggers-markdown.js';
import type { AgentRunner } from '../runners/types.js';
import { containAgents } from '../session/contain-agents.js';
import { hiddenPaths, makeOwnFolders } from '../session/containment.js';
import type { NetworkMode, SandboxKind } from '../session/sandbox.js';
import { type BuildTriggersFileOptions, buildTriggersFile } from './build-triggers-file.js';
import { evaluateDescription, type TriggersProgressEvent } from './evaluate-description.js';
import { findSkillsWithTriggers, type SkillUnderTest } from './find-skills-with-triggers.js';
import { buildNeighbourhood } from './neighbourhood.js';
import { optimizeDescription } from './optimize-description.js';
import type { DecisionBudget } from './run-trigger-query.js';
import { compareDescriptions } from './score-triggers.js';

export interface RunTriggersOptions {
  /** A skill folder, or a tree of them: every skill with trigger queries runs. */
  path: string;
  cwd?: string;
  /** Only these skills (by name). */
  skills?: string[];
  runner: AgentRunner;
  /** Runs of each query. @default 3 */
  runs?: number;
  /** A query passes when its trigger rate reaches this (stays under it, for should_trigger false). @default 0.5 */
  threshold?: number;
  /** @default { toolCalls: 10, seconds: 120 } */
  budget?: DecisionBudget;
  /** Stop each agent once its routing decision shows. @default true */
  earlyStop?: boolean;
  /** Neighbour skills instead of the repository's (`--neighbour`). */
  neighbours?: string[];
  /** Skills added to the neighbourhood (`--extra-skill`). */
  extraSkills?: string[];
  /** No neighbours from the repository. */
  alone?: boolean;
  /** Another description to test, compared with the skill's own on the same queries. */
  description?: { text: string; source: 'flag' | 'file' };
  /** Look for a better description with the judge model. */
  optimize?: { model: LanguageModel; iterations: number; holdout: number; seed: number };
  /** Runs at a time. @default 4 */
  concurrency?: number;
  /** Each run's time limit. @default 300000 */
  timeoutMs?: number;
  /** Where results go: `<outputDir>/<skill>/triggers/<run-id>/`. @default `<skill>/evals-runs/triggers/<run-id>/` */
  outputDir?: string;
  runId?: string;
  contextMode?: 'isolated' | 'ambient';
  env?: NodeJS.ProcessEnv;
  passEnv?: string[];
  sandbox?: SandboxKind;
  network?: NetworkMode;
  /** Hosts agents may reach besides their model (`--allow-host`). */
  allowHosts?: string[];
  /** Paths kept readable in the sandbox (`--sandbox-mount`). */
  sandboxMounts?: string[];
  signal?: AbortSignal;
  onProgress?: (event: TriggersProgressEvent) => void;
}

/** One skill's trigger run: what was written where. */
export interface SkillTriggersRun {
  skill: string;
  skillDir: string;
  runDir: string;
  /** The description that was tested (the candidate, or the best one found). */
  triggers: TriggersFile;
  /** With `description`: the skill's own description on the same queries. */
  baseline?: TriggersFile;
  history?: TriggersHistory;
  writeErrors: string[];
}

export interface RunTriggersResult {
  runs: SkillTriggersRun[];
  /** Skills whose trigger files have errors: they did not run. */
  invalid: Array<{ skill: string; fileName: string; errors: EvalsIssue[] }>;
  interrupted: boolean;
}

/**
 * Does the skill fire? Every trigger query of every skill found runs `runs` times through the
 * agent, with the skill installed among its neighbourhood, each run stopped as soon as the
 * routing decision shows. Writes `triggers.json` (and `benchmark.md`, and with `--optimize`
 * `triggers-history.json`) per skill.
 */
export async function runTriggers(options: RunTriggersOptions): Promise<RunTriggersResult> {
  const cwd = options.cwd ?? process.cwd();
  const { skills, invalid } = await findSkillsWithTriggers(options, cwd);
  const userEnv = options.env ?? process.env;
  const { containment, ambient } = await startAgents(options, skills.length > 0);
  const runId = options.runId ?? new Date().toISOString().replace(/[:.]/g, '-');
  const runs = options.runs ?? 3;
  const threshold = options.threshold ?? 0.5;
  const budget = options.budget ?? { toolCalls: 10, seconds: 120 };
  const earlyStop = options.earlyStop ?? true;
  const contextMode = options.contextMode ?? 'isolated';
  const limit = pLimit(options.concurrency ?? 4);
  let interrupted = false;
  const onStop = () => {
    interrupted = true;
  };
  options.signal?.addEventListener('abort', onStop, { once: true });
  if (options.signal?.aborted) onStop();

  const results: SkillTriggersRun[] = [];
  const baseOf = (skill: SkillUnderTest) =>
    options.outputDir ? join(resolve(cwd, options.outputDir), skill.name) : join(skill.dir, 'evals-runs');
  // Every skill's run folders are hidden from every run, and exist before the first sandbox.
  const outputBases = skills.map(baseOf);
  if (skills.length > 0) await makeOwnFolders(outputBases);
  for (const skill of skills) {
    if (interrupted) break;
    const neighbourhood = await buildNeighbourhood({
      skill: { name: skill.name, dir: skill.dir, description: skill.description },
      searchRoot: resolve(cwd, options.path),
      ...(options.neighbours ? { neighbours: options.neighbours } : {}),
      ...(options.extraSkills ? { extraSkills: options.extraSkills } : {}),
      ...(options.alone ? { alone: true } : {}),
      cwd,
    });
    for (const message of neighbourhood.notes) options.onProgress?.({ type: 'note', message });
    const base = baseOf(skill);
    const runDir = join(base, 'triggers', runId);
    const hidden = hiddenPaths({
      skillDir: skill.dir,
      outputBase: base,
      userEnv,
      contextMode,
      extra: [...neighbourhood.install.slice(1).map((entry) => entry.dir), ...outputBases],
    });
    const evaluate = (
      description: string | undefined,
      label?: string,
      queries: readonly TriggerQuery[] = skill.queries,
    ) =>
      evaluateDescription({
        runner: options.runner,
        containment,
        hidden,
        install: neighbourhood.install,
        queries,
        ...(description === undefined ? {} : { description }),
        runs,
        threshold,
        budget,
        earlyStop,
        timeoutMs: options.timeoutMs ?? 300_000,
        contextMode,
        ambient,
        limit,
        ...(options.signal ? { signal: options.signal } : {}),
        isStopped: () => interrupted,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(label ? { label } : {}),
      });
    const common = {
      skillName: skill.name,
      install: neighbourhood.install,
      runId,
      agent: options.runner.name,
      model: options.runner.model ?? null,
      runs,
      threshold,
      budget,
      earlyStop,
    };
    const run: SkillTriggersRun = {
      skill: skill.name,
      skillDir: skill.dir,
      runDir,
      triggers: buildTriggersFile({
        ...common,
        description: skill.description,
        descriptionSource: 'skill',
        queries: [],
      }),
      writeErrors: [],
    };
    await testDescriptions({ run, skill, common, evaluate, options, isStopped: () => interrupted });
    await writeRun(run);
    results.push(run);
  }
  options.signal?.removeEventListener('abort', onStop);
  return { runs: results, invalid, interrupted };
}

/** The agents' containment, and the agent checked once before any query runs. */
async function startAgents(options: RunTriggersOptions, anyQueries: boolean) {
  const userEnv = options.env ?? process.env;
  const { sandbox, containment, notes } = containAgents(options);
  const check =
    anyQueries && options.runner.check
      ? await options.runner.check({ env: userEnv, sandbox: sandbox.kind })
      : undefined;
  for (const message of [...notes, ...(check?.notes ?? [])]) options.onProgress?.({ type: 'note', message });
  return { containment, ambient: options.runner.ambientContext?.(userEnv) ?? [] };
}

type Evaluate = (
  description: string | undefined,
  label?: string,
  queries?: readonly TriggerQuery[],
) => Promise<TriggerQueryResult[]>;

/**
 * Tests a skill's descriptions as asked: the best one an optimization finds (compared with the
 * original on held-out queries), a candidate beside the skill's own, or the skill's own alone.
 */
async function testDescriptions(input: {
  run: SkillTriggersRun;
  skill: SkillUnderTest;
  common: Omit<BuildTriggersFileOptions, 'description' | 'descriptionSource' | 'queries' | 'comparison'>;
  evaluate: Evaluate;
  options: RunTriggersOptions;
  isStopped: () => boolean;
}): Promise<void> {
  const { run, skill, common, evaluate, options, isStopped } = input;
  if (options.optimize) {
    const skillText = await readFile(join(skill.dir, 'SKILL.md'), 'utf8').catch(() => '');
    const optimized = await optimizeDescription({
      skillName: skill.name,
      skillBody: skillText.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, ''),
      original: options.description?.text ?? skill.description,
      queries: skill.queries,
      model: options.optimize.model,
      iterations: options.optimize.iterations,
      holdout: options.optimize.holdout,
      seed: options.optimize.seed,
      evaluate: (description, iteration) => evaluate(description, `round ${iteration}`),
      isStopped,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const comparison = compareDescriptions(
      { description: optimized.history.original_description, queries: optimized.original.queries },
      { description: optimized.best.description, queries: optimized.best.queries },
      optimized.testIds,
    );
    run.history = optimized.history;
    run.triggers = buildTriggersFile({
      ...common,
      description: optimized.best.description,
      descriptionSource: 'optimize',
      queries: optimized.best.queries,
      comparison,
    });
  } else if (options.description) {
    const candidate = await evaluate(options.description.text, 'candidate');
    const own = await evaluate(undefined, 'baseline');
    const comparison = compareDescriptions(
      { description: skill.description, queries: own },
      { description: options.description.text, queries: candidate },
    );
    run.baseline = buildTriggersFile({
      ...common,
      description: skill.description,
      descriptionSource: 'skill',
      queries: own,
    });
    run.triggers = buildTriggersFile({
      ...common,
      description: options.description.text,
      descriptionSource: options.description.source,
      queries: candidate,
      comparison,
    });
  } else {
    run.triggers = buildTriggersFile({
      ...common,
      description: skill.description,
      descriptionSource: 'skill',
      queries: await evaluate(undefined),
    });
  }
}

async function writeRun(run: SkillTriggersRun): Promise<void> {
  const files: Array<[string, unknown]> = [
    ['triggers.json', run.triggers],
    ['triggers-baseline.json', run.baseline],
    ['triggers-history.json', run.history],
  ];
  for (const [name, value] of files) {
    if (value === undefined) continue;
    await writeJsonAtomic(join(run.runDir, name), value, { ensureFolder: true }).catch((error: unknown) => {
      run.writeErrors.push(`cannot write ${join(run.runDir, name)}: ${messageOf(error)}`);
    });
  }
  await writeFileAtomic(join(run.runDir, 'benchmark.md'), renderTriggersMarkdown(run.triggers, run.history)).catch(
    (error: unknown) => {
      run.writeErrors.push(`cannot write ${join(run.runDir, 'benchmark.md')}: ${messageOf(error)}`);
    },
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
