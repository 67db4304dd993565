import { isRecord, listOf } from './detect-format.js';
import type { MappedAssertion } from './map-assertion.js';
import type { ImportedCase, ImportResult, ReadReferenced } from './types.js';
import { behaviorChecks, mapWazaGrader, type NextId } from './waza-graders.js';

/** Where waza looks for a task's `inputs.files` when the task names no `context_dir`. */
const defaultFixtureDir = 'fixtures';

/**
 * A waza eval spec (`eval.yaml` with `skill` and `tasks`) as an evals.json: each task file the
 * `tasks` patterns match (relative to the spec) is a case: its `inputs.prompt` the prompt, its
 * `inputs.files` seeded from waza's fixture folder (`fixtures/` beside the spec, or the task's
 * `context_dir`) or written inline (`content`), its `expected` checks and `graders` mapped one by
 * one; the spec's own `graders` apply to every task. `toSkillPath` makes a path (relative to the
 * spec) a path in the skill folder, or undefined when it is outside.
 */
export function importWaza(
  spec: Record<string, unknown>,
  readReferenced: ReadReferenced,
  toSkillPath: (path: string) => string | undefined,
): ImportResult {
  const mapped: string[] = [];
  const lost: string[] = [];
  const shared = listOf(spec.graders).map((grader, at) => ({ grader, where: `graders[${at}]` }));
  const evals: ImportedCase[] = [];
  for (const { path, value } of taskFiles(spec.tasks, readReferenced, lost)) {
    if (!isRecord(value) || !isRecord(value.inputs) || typeof value.inputs.prompt !== 'string') {
      lost.push(`${path}: no \`inputs.prompt\`; the task is not imported`);
      continue;
    }
    if (value.enabled === false) {
      lost.push(`${path}: \`enabled: false\`; the task is not imported`);
      continue;
    }
    let count = 0;
    const nextId: NextId = () => `a${++count}`;
    const results = [
      ...expectedChecks(value.expected, nextId, `${path}: expected`),
      ...listOf(value.graders).flatMap((grader, at) => mapWazaGrader(grader, nextId, `${path}: graders[${at}]`)),
    ];
    const first = evals.length === 0;
    // The spec's graders are listed once, with the first task, though every task gets them.
    for (const { grader, where } of shared)
      for (const result of mapWazaGrader(grader, nextId, where))
        if (first || 'assertion' in result) results.push(result);
    const assertions = collect(results, mapped, lost, first);
    const inputs = readInputs(value, path, toSkillPath, lost);
    evals.push({
      id: typeof value.id === 'string' || typeof value.id === 'number' ? value.id : evals.length + 1,
      ...(typeof value.name === 'string' ? { name: value.name } : {}),
      prompt: value.inputs.prompt.trim(),
      ...(inputs.files.length ? { files: inputs.files } : {}),
      ...(inputs.sources.length ? { setup: { kind: 'seeded', sources: inputs.sources } } : {}),
      assertions,
    });
    if (value.timeout_seconds !== undefined)
      lost.push(`${path}: \`timeout_seconds\` is waza's own; set it with \`skeval run --timeout\``);
  }
  for (const key of ['config', 'metrics', 'hooks', 'inputs', 'tasks_from', 'baseline'])
    if (spec[key] !== undefined)
      lost.push(`\`${key}\` is waza's own (${wazaOwn[key]}): ${wazaFix[key] ?? 'not imported'}`);
  return { format: 'waza', evals: { evals }, mapped, lost };
}

const wazaOwn: Record<string, string> = {
  config: 'trials, timeout, executor, model',
  metrics: 'weights and thresholds of its scores',
  hooks: 'commands run around tasks',
  inputs: 'template variables',
  tasks_from: 'tasks from a CSV file',
  baseline: 'a run without the skill',
};
const wazaFix: Record<string, string> = {
  config: "set them with `skeval run`'s flags (`--runs`, `--timeout`, `--agent`, `--model`)",
  metrics: 'Skeval reports the pass rate of every assertion; gate it with `--min-pass-rate`',
  baseline: 'run `skeval run --compare` for the arm without the skill',
};

function collect(
  results: MappedAssertion[],
  mapped: string[],
  lost: string[],
  noted: boolean,
): ImportedCase['assertions'] {
  const assertions: ImportedCase['assertions'] = [];
  for (const result of results) {
    if ('lost' in result) lost.push(result.lost);
    else {
      assertions.push(result.assertion);
      if (noted || !result.note.startsWith('graders[')) mapped.push(result.note);
    }
  }
  return assertions;
}

function taskFiles(
  tasks: unknown,
  readReferenced: ReadReferenced,
  lost: string[],
): Array<{ path: string; value: unknown }> {
  const found: Array<{ path: string; value: unknown }> = [];
  for (const [index, entry] of listOf(tasks).entries()) {
    const pattern = typeof entry === 'string' ? entry : isRecord(entry) ? entry.include : undefined;
    if (typeof pattern !== 'string' || pattern === '') {
      lost.push(`tasks[${index}]: ${JSON.stringify(entry)} is not a pattern of task files; not imported`);
      continue;
    }
    const matches = readReferenced(pattern);
    if (matches.length === 0) lost.push(`tasks[${index}]: ${JSON.stringify(pattern)} matches no task file`);
    for (const match of matches)
      if ('problem' in match) lost.push(`tasks[${index}]: ${match.path} ${match.problem}`);
      else found.push(match);
  }
  return found;
}

/** A task's `expected`: output substrings (waza compares without case), outcomes, behavior limits, triggering. */
function expectedChecks(expected: unknown, nextId: NextId, where: string): MappedAssertion[] {
  if (!isRecord(expected)) return [];
  const results: MappedAssertion[] = [];
  const substring = (key: string, method: string, extra: Record<string, unknown>) => {
    const value = listOf(expected[key]).filter((entry): entry is string => typeof entry === 'string' && entry !== '');
    if (value.length > 0)
      results.push({
        assertion: { id: nextId(), kind: 'output', method, value, ...extra },
        note: `${where}.${key} → output/${method}${Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : ''}`,
      });
  };
  substring('output_contains', 'icontains', {});
  substring('output_contains_any', 'icontains', { match: 'any' });
  substring('output_not_contains', 'not-contains', { ignoreCase: true });
  if (isRecord(expected.behavior)) results.push(...behaviorChecks(expected.behavior, nextId, `${where}.behavior`));
  if (expected.outcomes !== undefined)
    results.push({
      lost: `${where}.outcomes: an agent that fails or times out is already an \`error\` verdict in Skeval; nothing to import`,
    });
  if (expected.tool_calls !== undefined)
    results.push({ lost: `${where}.tool_calls has no Skeval equivalent; not imported: use behavior/tool-called` });
  if (expected.should_trigger === true)
    results.push({
      assertion: { id: nextId(), kind: 'behavior', method: 'skill-read' },
      note: `${where}.should_trigger: true → behavior/skill-read`,
    });
  if (expected.should_trigger === false)
    results.push({
      lost: `${where}.should_trigger: false: Skeval has no "skill not read" assertion; not imported: write the prompt as a trigger query (\`"should_trigger": false\`) for \`skeval triggers\``,
    });
  return results;
}

interface TaskInputs {
  files: Array<{ path: string; content: string }>;
  sources: Array<{ from: string; to: string }>;
}

function readInputs(
  task: Record<string, unknown>,
  where: string,
  toSkillPath: (path: string) => string | undefined,
  lost: string[],
): TaskInputs {
  const inputs = isRecord(task.inputs) ? task.inputs : {};
  const fixtureDir = typeof task.context_dir === 'string' ? task.context_dir : defaultFixtureDir;
  const result: TaskInputs = { files: [], sources: [] };
  for (const [at, file] of listOf(inputs.files).entries()) {
    const place = `${where}: inputs.files[${at}]`;
    if (!isRecord(file) || typeof file.path !== 'string' || file.path === '') {
      lost.push(`${place}: not \`{ path, content? }\`; not imported`);
      continue;
    }
    if (typeof file.content === 'string') {
      result.files.push({ path: file.path, content: file.content });
      continue;
    }
    const from = file.path.split('/').includes('..') ? undefined : toSkillPath(`${fixtureDir}/${file.path}`);
    if (from === undefined)
      lost.push(`${place}: ${JSON.stringify(file.path)} is outside the skill folder; not imported`);
    else result.sources.push({ from, to: file.path });
  }
  if (inputs.context !== undefined)
    lost.push(`${where}: inputs.context is metadata for waza's executor; not imported: say what matters in the prompt`);
  if (inputs.environment !== undefined)
    lost.push(
      `${where}: inputs.environment (variables for the agent) is not imported: pass them with \`skeval run --pass-env <name>\``,
    );
  return result;
}
