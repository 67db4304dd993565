import type { ForeignFormat } from './types.js';

/**
 * Which tool wrote a parsed YAML or JSON file, from the keys only that tool uses: promptfoo's
 * `prompts`/`providers`/`tests` (or `defaultTest`), agentv's `tests`/`evalcases` of cases with
 * `criteria`, `expected_outcome`, `input` or `assertions`, Vally's `stimuli` with a `prompt`.
 * Undefined for anything else.
 */
export function detectForeignFormat(value: unknown): ForeignFormat | undefined {
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.stimuli) && value.stimuli.some((entry) => isRecord(entry) && 'prompt' in entry))
    return 'vally';
  const tests = value.tests;
  if (('prompts' in value || 'providers' in value || 'defaultTest' in value) && tests !== undefined) return 'promptfoo';
  const cases = Array.isArray(value.evalcases) ? value.evalcases : Array.isArray(tests) ? tests : undefined;
  if (cases?.some((entry) => isRecord(entry) && agentvCaseKeys.some((key) => key in entry))) return 'agentv';
  if (Array.isArray(tests) && tests.some((entry) => isRecord(entry) && ('vars' in entry || 'assert' in entry)))
    return 'promptfoo';
  return undefined;
}

const agentvCaseKeys = ['criteria', 'expected_outcome', 'input_messages', 'input', 'assertions', 'rubrics'];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
