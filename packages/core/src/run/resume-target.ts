import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { DiscoveredSkill } from '@skeval/evals';
import { listCaseRunFolders, readRunSummary } from '@skeval/run-folder';
import { SkevalError } from '@skeval/schema';

/**
 * The skill a `--resume` folder belongs to, after checking it is a run folder Skeval wrote: it
 * has a summary.json, or case folders. The summary names its skill; without one, the folder is
 * only accepted when a single skill runs. Anything else is a usage error that says what to give.
 */
export async function resumeTarget(
  given: string,
  cwd: string,
  skills: readonly DiscoveredSkill[],
): Promise<DiscoveredSkill> {
  const runDir = resolve(cwd, given);
  const stats = await stat(runDir).catch(() => undefined);
  if (!stats?.isDirectory()) {
    throw new SkevalError({
      code: 'usage',
      message: `--resume ${given}: no such folder; give a run folder a run printed (…/evals-runs/<run-id>)`,
    });
  }
  const summary = await readRunSummary(runDir);
  if (summary.status === 'invalid')
    throw new SkevalError({ code: 'usage', message: `--resume ${given}: ${summary.problem}` });
  const caseFolders = await listCaseRunFolders(runDir);
  if (summary.status === 'absent' && caseFolders.length === 0) {
    throw new SkevalError({
      code: 'usage',
      message: `--resume ${given}: not a run folder Skeval wrote (no summary.json, no eval-* folders); give one run's folder, such as …/evals-runs/<run-id>, not the folder that holds them`,
    });
  }
  if (summary.status === 'ok') {
    const skill = skills.find((entry) => entry.name === summary.value.skill);
    if (!skill) {
      const found = skills.map((entry) => entry.name).join(', ') || 'none';
      throw new SkevalError({
        code: 'usage',
        message: `--resume ${given}: the run belongs to skill ${summary.value.skill}, which is not among the skills found (${found}); run it from that skill's folder`,
      });
    }
    return skill;
  }
  const [only, ...others] = skills;
  if (!only || others.length > 0) {
    throw new SkevalError({
      code: 'usage',
      message: `--resume ${given}: the run has no summary.json to say which skill it belongs to; name it with --skill <name>`,
    });
  }
  return only;
}
