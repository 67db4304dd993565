import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TriggerQuery } from '@skeval/evals/internal';
import type { TriggerQueryResult } from '@skeval/schema';
import { type BuildTriggersFileOptions, buildTriggersFile } from './build-triggers-file.js';
import type { SkillUnderTest } from './find-skills-with-triggers.js';
import { optimizeDescription } from './optimize-description.js';
import type { RunTriggersOptions, SkillTriggersRun } from './run-triggers.js';
import { compareDescriptions } from './score-triggers.js';

export type Evaluate = (
  description: string | undefined,
  label?: string,
  queries?: readonly TriggerQuery[],
) => Promise<TriggerQueryResult[]>;

/**
 * Tests a skill's descriptions as asked: the best one an optimization finds (compared with the
 * original on held-out queries), a candidate beside the skill's own, or the skill's own alone.
 */
export async function testDescriptions(input: {
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
