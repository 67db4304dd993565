import { isRecord } from './detect-format.js';
import type { ReadInRepository } from './read-in-repository.js';
import type { ImportedCase, ImportResult } from './types.js';
import { mapVallyGrader } from './vally-graders.js';

/**
 * A Vally eval file (`eval.yaml` with `stimuli`) as an evals.json: each stimulus is a case, its
 * `prompt` the prompt, its `environment.files` (`src` in the skill, `dest` in the workspace) a
 * seeded setup, its `rubric` lines judged claims (what Vally's `prompt` grader judges), and its
 * `graders` mapped one by one. `toSkillPath` makes a `src` (relative to the eval file) a path in
 * the skill folder, or undefined when it is outside; `readOutside` reads such a `src` when it is
 * still in the repository (dotnet/skills keeps `tests/<plugin>/<skill>/fixtures/` apart from the
 * skill), and its text is written into the workspace inline.
 */
export function importVally(
  file: Record<string, unknown>,
  toSkillPath: (path: string) => string | undefined,
  readOutside?: ReadInRepository,
): ImportResult {
  const mapped: string[] = [];
  const lost: string[] = [];
  const stimuli = Array.isArray(file.stimuli) ? file.stimuli : [];
  const evals: ImportedCase[] = [];
  for (const [index, entry] of stimuli.entries()) {
    const where = `stimuli[${index}]`;
    if (!isRecord(entry) || typeof entry.prompt !== 'string' || entry.prompt.trim() === '') {
      lost.push(`${where}: no \`prompt\`; the stimulus is not imported`);
      continue;
    }
    const assertions: ImportedCase['assertions'] = [];
    for (const [at, line] of (Array.isArray(entry.rubric) ? entry.rubric : []).entries()) {
      if (typeof line === 'string' && line.trim() !== '') {
        assertions.push(line.trim());
        mapped.push(`${where}.rubric[${at}] → a judged claim`);
      } else lost.push(`${where}.rubric[${at}]: not a line of text; not imported`);
    }
    for (const [at, grader] of (Array.isArray(entry.graders) ? entry.graders : []).entries()) {
      if (isRecord(grader) && grader.type === 'prompt') {
        if (!Array.isArray(entry.rubric) || entry.rubric.length === 0)
          lost.push(`${where}.graders[${at}]: \`prompt\` with no \`rubric\` to judge; not imported`);
        continue;
      }
      for (const result of mapVallyGrader(grader, `a${assertions.length + 1}`, `${where}.graders[${at}]`)) {
        if ('lost' in result) lost.push(result.lost);
        else {
          assertions.push(result.assertion);
          mapped.push(result.note);
        }
      }
    }
    const { sources, files } = seededSources(entry.environment, where, { toSkillPath, readOutside, mapped, lost });
    evals.push({
      id: index + 1,
      ...(typeof entry.name === 'string' ? { name: entry.name } : {}),
      prompt: entry.prompt.trim(),
      ...(files.length ? { files } : {}),
      ...(sources.length ? { setup: { kind: 'seeded', sources } } : {}),
      assertions,
    });
    if (entry.constraints !== undefined)
      lost.push(
        `${where}.constraints: Vally's limits on the agent; not imported (a behavior/budget assertion checks them)`,
      );
  }
  for (const key of ['defaults', 'config', 'environment', 'scoring'])
    if (file[key] !== undefined)
      lost.push(`\`${key}\` is Vally's own (executor, runs, timeout, threshold): set them with \`skeval run\`'s flags`);
  return { format: 'vally', evals: { evals }, mapped, lost };
}

interface SourceReading {
  toSkillPath: (path: string) => string | undefined;
  readOutside: ReadInRepository | undefined;
  mapped: string[];
  lost: string[];
}

function seededSources(
  environment: unknown,
  where: string,
  { toSkillPath, readOutside, mapped, lost }: SourceReading,
): { sources: Array<{ from: string; to: string }>; files: Array<{ path: string; content: string }> } {
  const entries = isRecord(environment) && Array.isArray(environment.files) ? environment.files : [];
  const sources: Array<{ from: string; to: string }> = [];
  const files: Array<{ path: string; content: string }> = [];
  for (const [at, file] of entries.entries()) {
    const place = `${where}.environment.files[${at}]`;
    if (!isRecord(file) || typeof file.src !== 'string' || typeof file.dest !== 'string') {
      lost.push(`${place}: not \`{ src, dest }\`; not imported`);
      continue;
    }
    const from = toSkillPath(file.src);
    const to = file.dest.replace(/^\.\//, '');
    if (from !== undefined) {
      sources.push({ from, to });
      continue;
    }
    const read = readOutside?.(file.src) ?? { problem: 'is outside the skill folder' };
    if ('problem' in read) {
      lost.push(`${place}: ${JSON.stringify(file.src)} ${read.problem}; not imported`);
      continue;
    }
    for (const { path, content } of read)
      files.push({ path: path === '' ? to : `${to.replace(/\/$/, '')}/${path}`, content });
    mapped.push(
      `${place}: ${JSON.stringify(file.src)} is outside the skill folder but in the repository; its text is written into the workspace (${read.length} file${read.length === 1 ? '' : 's'})`,
    );
  }
  return { sources, files };
}
