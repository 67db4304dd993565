import { isRecord } from './detect-format.js';

/** What one foreign assertion became: a Skeval assertion and a line saying how, or a line saying why not. */
export type MappedAssertion = { assertion: string | Record<string, unknown>; note: string } | { lost: string };

const outputMethods: Record<string, { method: string; extra?: Record<string, unknown> }> = {
  contains: { method: 'contains' },
  'contains-all': { method: 'contains' },
  'contains-any': { method: 'contains', extra: { match: 'any' } },
  icontains: { method: 'icontains' },
  'icontains-all': { method: 'icontains' },
  'icontains-any': { method: 'icontains', extra: { match: 'any' } },
  'not-contains': { method: 'not-contains' },
  'not-icontains': { method: 'not-contains', extra: { ignoreCase: true } },
  equals: { method: 'exact' },
  'is-json': { method: 'json-valid' },
};
const judged = new Set([
  'llm-rubric',
  'model-graded-closedqa',
  'g-eval',
  'rubrics',
  'llm-grader',
  'llm_judge',
  'factuality',
]);

/**
 * One promptfoo or agentv assertion as Skeval's: the string checks promptfoo and agentv share
 * map to `output` intents, `regex`/`starts-with` to a regular expression, rubric and model-graded
 * types to judged claims; everything else (code, similarity, cost, latency, …) is lost, with why.
 * `id` names the intent; `where` places the note.
 */
export function mapAssertion(source: unknown, id: string, where: string): MappedAssertion {
  if (typeof source === 'string') return { assertion: source, note: `${where}: a string → a judged claim` };
  if (!isRecord(source)) return { lost: `${where}: not an assertion (${JSON.stringify(source)}); not imported` };
  const type = typeof source.type === 'string' ? source.type : '';
  const value = source.value;
  const label = `${where}: \`${type || 'no type'}\``;
  const output = outputMethods[type];
  if (output && (type === 'is-json' || isText(value))) {
    const intent = {
      id,
      kind: 'output',
      method: output.method,
      ...(type === 'is-json' ? {} : { value }),
      ...output.extra,
    };
    return {
      assertion: intent,
      note: `${label} → output/${output.method}${output.extra ? ` ${JSON.stringify(output.extra)}` : ''}`,
    };
  }
  if ((type === 'regex' || type === 'not-regex') && typeof value === 'string') {
    if (type === 'not-regex')
      return {
        lost: `${label} has no Skeval equivalent (a pattern that must not match); not imported: write it as a judged claim`,
      };
    return { assertion: { id, kind: 'output', method: 'regex', pattern: value }, note: `${label} → output/regex` };
  }
  if (type === 'starts-with' && typeof value === 'string') {
    const pattern = `^\\s*${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    return {
      assertion: { id, kind: 'output', method: 'regex', pattern },
      note: `${label} → output/regex ${JSON.stringify(pattern)}`,
    };
  }
  if (judged.has(type)) {
    const claim = [value, source.criteria, source.rubric].find((candidate) => typeof candidate === 'string');
    if (typeof claim === 'string' && claim.trim() !== '')
      return { assertion: claim.trim(), note: `${label} → a judged claim` };
    return { lost: `${label} has no rubric text; not imported` };
  }
  return { lost: `${label} has no Skeval equivalent; not imported${lostHint(type)}` };
}

function lostHint(type: string): string {
  if (['javascript', 'python', 'script', 'code-grader', 'code_judge', 'webhook'].includes(type))
    return ': its code runs in the other tool; write it as a grader in .skeval/graders/ (defineScriptGrader), the contract `skeval assert` shares';
  if (['similar', 'levenshtein', 'rouge-n', 'bleu'].includes(type))
    return ': write the expected answer as `expected_output` and a judged claim';
  if (['cost', 'latency'].includes(type)) return ': use a behavior/budget assertion (`maxCostUsd`, `maxDurationMs`)';
  return '';
}

function isText(value: unknown): value is string | string[] {
  return (
    (typeof value === 'string' && value !== '') ||
    (Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === 'string'))
  );
}
