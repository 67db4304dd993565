import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { discoverSkills, referenceStubMarker } from '@skeval/evals/internal';
import { readJsonArtifact, writeJsonAtomic } from '@skeval/run-folder';
import {
  type CheckedSkill,
  type CheckRecord,
  type CheckVerdict,
  checkRecordSchema,
  type EvalStrength,
} from '@skeval/schema/internal';
import { referenceFolderName, referenceRootOf } from './reference.js';

/** `<skill>/evals-runs/check.json`: where the last check of a skill is kept for `skeval run`. */
export function checkRecordPath(skillDir: string): string {
  return join(skillDir, 'evals-runs', 'check.json');
}

async function evalsDigest(evalsPath: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(evalsPath))
    .digest('hex');
}

/** A skill's check in numbers: the mutation score, the verdicts counted, the mutants that survived. */
function strengthOf(skill: CheckedSkill, checkedAt: string): EvalStrength {
  const verdicts: Record<CheckVerdict, number> = { ok: 0, broken: 0, vacuous: 0, weak: 0, unchecked: 0 };
  for (const evalCase of skill.cases) for (const assertion of evalCase.assertions) verdicts[assertion.verdict] += 1;
  return {
    checked_at: checkedAt,
    current: true,
    mutation_score: skill.mutation_score,
    verdicts,
    cases_with_reference: skill.cases.filter((evalCase) => evalCase.reference !== null).length,
    cases: skill.cases.length,
    surviving_mutants: skill.cases.flatMap((evalCase) =>
      evalCase.mutants
        .filter((mutant) => !mutant.killed)
        .map((mutant) => ({ case_id: evalCase.case_id, id: mutant.id })),
    ),
  };
}

/** Keeps a skill's check where `skeval run` finds it. */
export async function writeCheckRecord(options: {
  skillDir: string;
  evalsPath: string;
  skill: CheckedSkill;
  checkedAt: string;
}): Promise<void> {
  const record: CheckRecord = {
    version: 1,
    evals_sha256: await evalsDigest(options.evalsPath),
    strength: strengthOf(options.skill, options.checkedAt),
    skill: options.skill,
  };
  await writeJsonAtomic(checkRecordPath(options.skillDir), record);
}

/**
 * A skill's eval strength at its last check, with `current` saying whether the evals file is
 * still the one checked; undefined when it was never checked (or the record does not read).
 */
export async function readEvalStrength(skillDir: string, evalsPath: string): Promise<EvalStrength | undefined> {
  const read = await readJsonArtifact(checkRecordPath(skillDir), checkRecordSchema, 'evals-runs/check.json');
  if (read.status !== 'ok') return undefined;
  const digest = await evalsDigest(evalsPath).catch(() => '');
  return { ...read.value.strength, current: digest === read.value.evals_sha256 };
}

/**
 * The hint `skeval run` prints for a skill whose evals have references but were never checked,
 * or undefined: was it checked, or has it nothing to check against.
 */
export async function uncheckedReferencesHint(run: { skill: string; skillDir: string }): Promise<string | undefined> {
  if (
    await stat(checkRecordPath(run.skillDir)).then(
      () => true,
      () => false,
    )
  )
    return undefined;
  const [skill] = await discoverSkills({ path: run.skillDir });
  const cases = skill?.load.evals?.cases ?? [];
  if (!skill) return undefined;
  const root = referenceRootOf(skill.evalsPath);
  let found = cases.some((evalCase) => evalCase.reference !== undefined);
  for (const evalCase of cases) {
    if (found) break;
    const dir = join(root, referenceFolderName(evalCase.id));
    const response = await readFile(join(dir, 'response.md'), 'utf8').catch(() => undefined);
    found =
      (response !== undefined && !response.startsWith(referenceStubMarker)) ||
      (await stat(join(dir, 'outputs')).then(
        (entry) => entry.isDirectory(),
        () => false,
      ));
  }
  if (!found) return undefined;
  return `${skill.name} has references but its evals were never checked: skeval check ${skill.dir} shows whether each assertion tells a good answer from a bad one`;
}
