import { isAbsolute } from 'node:path';
import { isRecord, listOf } from './detect-format.js';
import type { ImportedCase, ImportResult, ReadText } from './types.js';

/** What skillgrade's own keys are for, and how to get the same with Skeval. */
const ownKeys: Record<string, string> = {
  agent: 'the agent: run `skeval run --agent <name>`',
  provider: 'Docker or the local machine: Skeval runs each case in its own contained workspace',
  trials: 'the trials of a task: run `skeval run --runs <n>`',
  timeout: "each trial's time limit: run `skeval run --timeout <seconds>`",
  threshold: 'the pass rate `--ci` needs: gate it with `skeval run --min-pass-rate`',
  grader_model: "the rubric grader's model: pick the judge with `skeval run --judge <provider:model>`",
  docker: 'the image the trial runs in: Skeval runs the agent on this machine, contained',
  environment: "the container's CPUs, memory and mounts: not imported",
  env: 'variables for the agent: pass them with `skeval run --pass-env <name>`',
  trialConfig: 'commands run around each trial: not imported',
  solution: 'a reference solution script: not imported',
  agentWorkingDir: "the agent's working folder: the agent starts in the case's workspace",
};
const caseKeys = new Set(['name', 'instruction', 'workspace', 'graders']);

/**
 * A skillgrade `eval.yaml` (`tasks` with a `name`, an `instruction` and `graders` each) as an
 * evals.json: each task is a case, its `instruction` (the text, or the file it names) the prompt,
 * its `workspace` entries (`src` → `dest`, or inline `content`; `defaults.workspace` first, a
 * task's own entry winning for the same `dest`) the files seeded into the workspace, each
 * `llm_rubric` criterion (a `- ` line of the rubric; the whole rubric when it has none) a judged
 * claim, each tool of a `tool_usage` grader a tool check. `toSkillPath` makes a path (relative to
 * the file) a path in the skill folder, or undefined when it is outside.
 */
export function importSkillgrade(
  config: Record<string, unknown>,
  readText: ReadText,
  toSkillPath: (path: string) => string | undefined,
): ImportResult {
  const mapped: string[] = [];
  const lost: string[] = [];
  const defaults = isRecord(config.defaults) ? config.defaults : {};
  const unread = new Map<string, number>();
  const evals: ImportedCase[] = [];
  let weighted = false;
  for (const [index, task] of listOf(config.tasks).entries()) {
    if (!isRecord(task)) continue;
    const where = `tasks[${index}]${typeof task.name === 'string' ? ` (${task.name})` : ''}`;
    const prompt = textOf(task.instruction, `${where}.instruction`, readText, lost);
    if (prompt === undefined || prompt === '') {
      lost.push(`${where}: no instruction to give the agent; the task is not imported`);
      continue;
    }
    for (const key of Object.keys(task)) if (!caseKeys.has(key)) unread.set(key, (unread.get(key) ?? 0) + 1);
    const assertions: ImportedCase['assertions'] = [];
    for (const [at, grader] of listOf(task.graders).entries()) {
      const place = `${where}.graders[${at}]`;
      if (isRecord(grader) && grader.weight !== undefined && grader.weight !== 1) weighted = true;
      assertions.push(...mapGrader(grader, place, readText, mapped, lost));
    }
    const workspace = seededFiles(
      [...workspaceOf(defaults, 'defaults'), ...workspaceOf(task, where)],
      toSkillPath,
      lost,
    );
    evals.push({
      id: typeof task.name === 'string' && task.name !== '' ? task.name : index + 1,
      prompt,
      ...(workspace.files.length ? { files: workspace.files } : {}),
      ...(workspace.sources.length ? { setup: { kind: 'seeded', sources: workspace.sources } } : {}),
      assertions,
    });
  }
  if (weighted)
    lost.push(
      "`weight`: skillgrade's weighted score; Skeval reports each assertion's pass rate: gate it with `skeval run --min-pass-rate`",
    );
  for (const key of Object.keys(defaults))
    if (key !== 'workspace') lost.push(`\`defaults.${key}\`: ${ownKeys[key] ?? 'not imported'}`);
  for (const [key, count] of unread)
    lost.push(`\`${key}\` (in ${count} task${count === 1 ? '' : 's'}): ${ownKeys[key] ?? 'not imported'}`);
  if (config.skill !== undefined)
    lost.push('`skill` (the path to SKILL.md): Skeval runs the skill whose folder holds the eval file');
  return { format: 'skillgrade', evals: { evals }, mapped, lost };
}

/** A value that is text or, on one line, the path of a file holding it (as skillgrade reads `instruction` and `rubric`). */
function textOf(value: unknown, where: string, readText: ReadText, lost: string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.includes('\n')) return trimmed;
  const read = readText(trimmed);
  if (read === undefined) return trimmed;
  if ('problem' in read) {
    lost.push(`${where}: ${read.path} ${read.problem}`);
    return undefined;
  }
  return read.text.trim();
}

function mapGrader(
  grader: unknown,
  where: string,
  readText: ReadText,
  mapped: string[],
  lost: string[],
): ImportedCase['assertions'] {
  const type = isRecord(grader) ? grader.type : undefined;
  if (!isRecord(grader) || typeof type !== 'string') {
    lost.push(`${where}: not a grader with a \`type\`; not imported`);
    return [];
  }
  if (type === 'llm_rubric') {
    const outcomes = listOf(grader.outcome_assertions).filter(
      (entry): entry is string => typeof entry === 'string' && entry.trim() !== '',
    );
    if (outcomes.length > 0) {
      mapped.push(
        `${where}: llm_rubric outcome_assertions → ${outcomes.length} judged claim${outcomes.length === 1 ? '' : 's'}`,
      );
      return outcomes.map((entry) => entry.trim());
    }
    const rubric = textOf(grader.rubric, `${where}.rubric`, readText, lost);
    if (!rubric) {
      if (rubric === '' || grader.rubric === undefined)
        lost.push(`${where}: an llm_rubric with no rubric; not imported`);
      return [];
    }
    const criteria = rubricCriteria(rubric);
    mapped.push(
      `${where}: llm_rubric → ${criteria.length} judged claim${criteria.length === 1 ? '' : 's'}${criteria.length > 1 ? ' (its "- " criteria)' : ''}`,
    );
    if (grader.model !== undefined)
      lost.push(
        `${where}.model: the rubric grader's model: pick the judge with \`skeval run --judge <provider:model>\``,
      );
    return criteria;
  }
  if (type === 'tool_usage') return toolChecks(grader, where, mapped, lost);
  if (type === 'deterministic') {
    const command = typeof grader.run === 'string' ? (grader.run.trim().split('\n')[0] ?? '') : '';
    const shown = command.length > 60 ? `${command.slice(0, 57)}…` : command;
    lost.push(
      `${where}: a deterministic grader${shown ? ` (\`${shown}\`)` : ''} runs a shell command in skillgrade's container and scores its exit code or printed score; Skeval runs no shell commands as graders: write the check as a custom grader in .skeval/graders/ (docs/graders.md) and name it in the case's assertions`,
    );
    return [];
  }
  lost.push(`${where}: \`${type}\` is not a skillgrade grader Skeval knows; not imported`);
  return [];
}

/** The criteria skillgrade's rubric grader asks about: its `- ` lines, or the whole rubric when it has none. */
function rubricCriteria(rubric: string): string[] {
  const bullets = rubric
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('- ') && line.length > 2)
    .map((line) => line.slice(2).trim());
  return bullets.length > 0 ? bullets : [rubric];
}

function toolChecks(
  grader: Record<string, unknown>,
  where: string,
  mapped: string[],
  lost: string[],
): ImportedCase['assertions'] {
  const checks: ImportedCase['assertions'] = [];
  for (const [at, tool] of listOf(grader.expectedTools).entries()) {
    if (!isRecord(tool) || typeof tool.name !== 'string' || tool.name === '') {
      lost.push(`${where}.expectedTools[${at}]: no tool \`name\`; not imported`);
      continue;
    }
    checks.push({ id: `${tool.name}-called`, kind: 'behavior', method: 'tool-called', tool: tool.name });
    mapped.push(`${where}.expectedTools[${at}] → behavior/tool-called (tool names are the agent's own)`);
    const rest = Object.keys(tool).filter((key) => key !== 'name');
    if (rest.length > 0)
      lost.push(
        `${where}.expectedTools[${at}]: ${rest.map((key) => `\`${key}\``).join(', ')} not checked; only the name is`,
      );
  }
  if (checks.length === 0 && listOf(grader.expectedTools).length === 0)
    lost.push(`${where}: a tool_usage grader with no \`expectedTools\`; not imported`);
  return checks;
}

interface WorkspaceEntry {
  src?: string;
  content?: string;
  dest: string;
  chmod?: unknown;
  where: string;
}

/** A holder's `workspace` entries: `{ src, dest }`, `{ content, dest }`, or a path (landing under its own name). */
function workspaceOf(holder: Record<string, unknown>, where: string): WorkspaceEntry[] {
  return listOf(holder.workspace).flatMap((entry, at): WorkspaceEntry[] => {
    const place = `${where}.workspace[${at}]`;
    if (typeof entry === 'string') return [{ src: entry, dest: entry.split('/').pop() ?? entry, where: place }];
    if (!isRecord(entry) || typeof entry.dest !== 'string') return [{ dest: '', where: place }];
    return [
      {
        ...(typeof entry.src === 'string' ? { src: entry.src } : {}),
        ...(typeof entry.content === 'string' ? { content: entry.content } : {}),
        dest: entry.dest,
        chmod: entry.chmod,
        where: place,
      },
    ];
  });
}

/** The workspace entries as inline files and seeded sources, a later entry for the same `dest` winning. */
function seededFiles(
  entries: WorkspaceEntry[],
  toSkillPath: (path: string) => string | undefined,
  lost: string[],
): { files: Array<{ path: string; content: string }>; sources: Array<{ from: string; to: string }> } {
  const byDest = new Map(entries.map((entry) => [entry.dest, entry]));
  const files: Array<{ path: string; content: string }> = [];
  const sources: Array<{ from: string; to: string }> = [];
  for (const { src, content, dest, chmod, where } of byDest.values()) {
    if (dest === '' || (src === undefined && content === undefined)) {
      lost.push(`${where}: not \`{ src, dest }\` or \`{ content, dest }\`; not imported`);
      continue;
    }
    if (isAbsolute(dest) || dest.split('/').includes('..')) {
      lost.push(
        `${where}: \`dest\` ${JSON.stringify(dest)} is outside the workspace (a path in skillgrade's container); Skeval writes files only into the workspace: give a path under it and name that path in the prompt`,
      );
      continue;
    }
    if (content !== undefined) {
      files.push({ path: dest, content });
      continue;
    }
    const from = src === undefined ? undefined : toSkillPath(src);
    if (from === undefined) {
      lost.push(`${where}: \`src\` ${JSON.stringify(src)} is outside the skill folder; not imported`);
      continue;
    }
    sources.push({ from, to: dest });
    if (chmod !== undefined)
      lost.push(
        `${where}: \`chmod\` is not applied; Skeval copies a file with its own mode: make ${from} executable in the skill folder (git keeps the mode)`,
      );
  }
  return { files, sources };
}
