import type { ForeignFormat } from './types.js';

/**
 * Which tool wrote a parsed YAML or JSON file, from the keys only that tool uses: promptfoo's
 * `prompts`/`providers`/`tests` (or `defaultTest`), agentv's `tests`/`evalcases` of cases with
 * `criteria`, `expected_outcome`, `input` or `assertions`, Vally's `stimuli` with a `prompt`,
 * waza's `skill` with `tasks` patterns, skillgrade's `tasks` with an `instruction` each, a `cases.yaml` list of cases with a prompt (under `cases`,
 * or the file itself a list). Undefined for anything else.
 */
export function detectForeignFormat(value: unknown): ForeignFormat | undefined {
  if (Array.isArray(value)) return value.some(isPromptCase) ? 'cases' : undefined;
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.stimuli) && value.stimuli.some((entry) => isRecord(entry) && 'prompt' in entry))
    return 'vally';
  if (typeof value.skill === 'string' && Array.isArray(value.tasks) && value.tasks.every(isTaskPattern)) return 'waza';
  if (Array.isArray(value.tasks) && value.tasks.length > 0 && value.tasks.every(isInlineTask)) return 'skillgrade';
  const tests = value.tests;
  if (('prompts' in value || 'providers' in value || 'defaultTest' in value) && tests !== undefined) return 'promptfoo';
  const cases = Array.isArray(value.evalcases) ? value.evalcases : Array.isArray(tests) ? tests : undefined;
  if (cases?.some((entry) => isRecord(entry) && agentvCaseKeys.some((key) => key in entry))) return 'agentv';
  if (Array.isArray(tests) && tests.some((entry) => isRecord(entry) && ('vars' in entry || 'assert' in entry)))
    return 'promptfoo';
  if (Array.isArray(value.cases) && value.cases.some(isPromptCase)) return 'cases';
  return undefined;
}

function isTaskPattern(entry: unknown): boolean {
  return typeof entry === 'string' || (isRecord(entry) && typeof entry.include === 'string');
}

function isInlineTask(entry: unknown): boolean {
  return isRecord(entry) && typeof entry.instruction === 'string';
}

function isPromptCase(entry: unknown): boolean {
  return isRecord(entry) && casePromptKeys.some((key) => key in entry);
}

/** Keys a `cases.yaml` case keeps its prompt under, most usual first. */
export const casePromptKeys = ['prompt', 'input', 'user', 'query', 'question', 'user_prompt', 'message', 'task'];

const agentvCaseKeys = ['criteria', 'expected_outcome', 'input_messages', 'input', 'assertions', 'rubrics'];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A value as a list: nothing for null or undefined, a list as it is, anything else alone. */
export function listOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
