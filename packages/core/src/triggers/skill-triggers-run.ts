import { join, resolve } from 'node:path';
import type { TriggerQuery } from '@skeval/evals/internal';
import type { LimitFunction } from 'p-limit';
import { type Containment, hiddenPaths } from '../session/containment.js';
import { buildTriggersFile } from './build-triggers-file.js';
import { evaluateDescription } from './evaluate-description.js';
import type { SkillUnderTest } from './find-skills-with-triggers.js';
import { buildNeighbourhood } from './neighbourhood.js';
import type { RunTriggersOptions, SkillTriggersRun } from './run-triggers.js';
import { testDescriptions } from './test-descriptions.js';
import { writeTriggersRun } from './write-triggers-run.js';

/** What every skill's trigger run shares: the run's settings, the agents' containment, the output bases. */
export interface TriggersRunContext {
  options: RunTriggersOptions;
  cwd: string;
  userEnv: NodeJS.ProcessEnv;
  containment: Containment;
  ambient: string[];
  runId: string;
  runs: number;
  threshold: number;
  budget: NonNullable<RunTriggersOptions['budget']>;
  earlyStop: boolean;
  contextMode: 'isolated' | 'ambient';
  limit: LimitFunction;
  outputBases: string[];
  baseOf: (skill: SkillUnderTest) => string;
  isStopped: () => boolean;
}

/**
 * One skill's trigger run: its neighbourhood installed beside it, what its runs may not see hidden,
 * its descriptions tested as asked, and its files written.
 */
export async function runSkillTriggers(skill: SkillUnderTest, context: TriggersRunContext): Promise<SkillTriggersRun> {
  const { options, cwd, userEnv, containment, ambient, runId, runs, threshold, budget, earlyStop, contextMode, limit } =
    context;
  const { outputBases } = context;
  const neighbourhood = await buildNeighbourhood({
    skill: { name: skill.name, dir: skill.dir, description: skill.description },
    searchRoot: resolve(cwd, options.path),
    ...(options.neighbours ? { neighbours: options.neighbours } : {}),
    ...(options.extraSkills ? { extraSkills: options.extraSkills } : {}),
    ...(options.alone ? { alone: true } : {}),
    cwd,
  });
  for (const message of neighbourhood.notes) options.onProgress?.({ type: 'note', message });
  const base = context.baseOf(skill);
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
      isStopped: context.isStopped,
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
  await testDescriptions({ run, skill, common, evaluate, options, isStopped: context.isStopped });
  await writeTriggersRun(run);
  return run;
}
