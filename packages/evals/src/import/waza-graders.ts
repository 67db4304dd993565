import { isRecord } from './detect-format.js';
import type { MappedAssertion } from './map-assertion.js';
import { jsPattern } from './vally-graders.js';

/** Makes the next intent id of a case (`a1`, `a2`, …). */
export type NextId = () => string;

/** Graders waza runs that have no Skeval twin, with what to write instead. */
const notImportable: Record<string, string> = {
  code: 'its Python assertions run in waza; write the check as a grader in .skeval/graders/ (defineScriptGrader), the contract `skeval assert` shares',
  program:
    'it runs a program in waza; write it as a grader in .skeval/graders/ (defineScriptGrader), the contract `skeval assert` shares',
  script:
    'it runs a script in waza; write it as a grader in .skeval/graders/ (defineScriptGrader), the contract `skeval assert` shares',
  json_schema: 'validates the response against a JSON Schema; use workspace/json-valid with `schema` for a file',
  diff: 'compares the workspace with a snapshot; use workspace/snapshot-diff with the expected folder under evals/',
  human: 'needs a person; review the run with `skeval report` instead',
  human_calibration: 'needs a person; calibrate the judge with `skeval calibrate` instead',
  llm_comparison: 'compares with a reference answer; write it as `expected_output` and a judged claim',
  tool_constraint: 'constrains tool arguments; use behavior/tool-called with `argsPattern`',
  tool_calls: 'has no Skeval equivalent',
};

/**
 * One waza grader (`type`, `name`, `config`) as Skeval assertions: `text`/`regex` patterns and
 * substrings as `output` intents (waza's `contains` ignores case: `icontains`), `behavior` limits as
 * a budget and tool checks, `file` as workspace checks, `prompt`/`llm` text as judged claims,
 * `skill_invocation` as skill reads, `action_sequence` as a tool order. Checks that must not match
 * have no Skeval twin and are listed, as is everything that runs code in waza.
 */
export function mapWazaGrader(source: unknown, nextId: NextId, where: string): MappedAssertion[] {
  if (!isRecord(source)) return [{ lost: `${where}: not a grader (${JSON.stringify(source)}); not imported` }];
  const type = typeof source.type === 'string' ? source.type : '';
  const config = isRecord(source.config) ? source.config : {};
  const label = `${where}: \`${type || 'no type'}\``;
  if (type === 'text' || type === 'regex') return textChecks(config, nextId, label);
  if (type === 'behavior') return behaviorChecks(config, nextId, label);
  if (type === 'file') return fileChecks(config, nextId, label);
  if (type === 'prompt' || type === 'llm') return judgedText(type === 'prompt' ? config.prompt : source.rubric, label);
  if (type === 'skill_invocation') return skillInvocations(config, nextId, label);
  if (type === 'action_sequence') return actionSequence(config, nextId, label);
  const hint = notImportable[type];
  return [{ lost: `${label} ${hint ? `is not imported: ${hint}` : 'has no Skeval equivalent; not imported'}` }];
}

function strings(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((entry): entry is string => typeof entry === 'string' && entry !== '');
}

function textChecks(config: Record<string, unknown>, nextId: NextId, label: string): MappedAssertion[] {
  const results: MappedAssertion[] = [];
  const substring = (key: string, method: string, extra: Record<string, unknown> = {}) => {
    const value = strings(config[key]);
    if (value.length > 0)
      results.push({
        assertion: { id: nextId(), kind: 'output', method, value, ...extra },
        note: `${label} \`${key}\` → output/${method}${Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : ''}`,
      });
  };
  substring('contains', 'icontains');
  substring('contains_cs', 'contains');
  substring('not_contains', 'not-contains', { ignoreCase: true });
  substring('not_contains_cs', 'not-contains');
  for (const key of ['regex_match', 'must_match'])
    for (const source of strings(config[key])) {
      const { pattern, flags } = jsPattern(source);
      results.push({
        assertion: { id: nextId(), kind: 'output', method: 'regex', pattern, ...(flags ? { flags } : {}) },
        note: `${label} \`${key}\` ${JSON.stringify(source)} → output/regex${flags ? ` (flags ${JSON.stringify(flags)})` : ''}`,
      });
    }
  for (const key of ['regex_not_match', 'must_not_match'])
    for (const source of strings(config[key]))
      results.push({
        lost: `${label} \`${key}\` ${JSON.stringify(source)} has no Skeval equivalent (a pattern that must not match); not imported: write it as a judged claim`,
      });
  return results.length > 0 ? results : [{ lost: `${label} checks nothing Skeval reads; not imported` }];
}

/** waza's behavior limits (a grader's `config`, or a task's `expected.behavior`) as Skeval's. */
export function behaviorChecks(config: Record<string, unknown>, nextId: NextId, label: string): MappedAssertion[] {
  const results: MappedAssertion[] = [];
  const limits: Record<string, number> = {};
  const limitKeys = [
    ['max_tool_calls', 'maxToolCalls'],
    ['max_tokens', 'maxTokens'],
    ['max_duration_ms', 'maxDurationMs'],
    ['max_response_time_ms', 'maxDurationMs'],
  ] as const;
  for (const [key, budget] of limitKeys) {
    const value = config[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) limits[budget] = value;
    else if (value !== undefined)
      results.push({ lost: `${label} \`${key}\` ${JSON.stringify(value)} is not a limit Skeval reads; not imported` });
  }
  if (Object.keys(limits).length > 0)
    results.push({
      assertion: { id: nextId(), kind: 'behavior', method: 'budget', ...limits },
      note: `${label} → behavior/budget ${JSON.stringify(limits)}`,
    });
  for (const tool of strings(config.required_tools))
    results.push({
      assertion: { id: nextId(), kind: 'behavior', method: 'tool-called', tool },
      note: `${label} required tool ${JSON.stringify(tool)} → behavior/tool-called (tool names are the agent's own)`,
    });
  for (const tool of strings(config.forbidden_tools))
    results.push({
      assertion: { id: nextId(), kind: 'behavior', method: 'tool-not-called', tool },
      note: `${label} forbidden tool ${JSON.stringify(tool)} → behavior/tool-not-called (tool names are the agent's own)`,
    });
  if (config.max_iterations !== undefined)
    results.push({
      lost: `${label} \`max_iterations\` has no Skeval equivalent; not imported: limit tool calls with \`max_tool_calls\``,
    });
  return results.length > 0 ? results : [{ lost: `${label} sets no limit Skeval reads; not imported` }];
}

function fileChecks(config: Record<string, unknown>, nextId: NextId, label: string): MappedAssertion[] {
  const results: MappedAssertion[] = strings(config.must_exist).map((path) => ({
    assertion: { id: nextId(), kind: 'workspace', method: 'file-exists', path },
    note: `${label} must_exist ${JSON.stringify(path)} → workspace/file-exists`,
  }));
  for (const path of strings(config.must_not_exist))
    results.push({
      lost: `${label} must_not_exist ${JSON.stringify(path)} has no Skeval equivalent (a file that must be absent); not imported: write it as a judged claim`,
    });
  const patterns = Array.isArray(config.content_patterns) ? config.content_patterns : [];
  for (const entry of patterns) {
    if (!isRecord(entry) || typeof entry.path !== 'string') {
      results.push({
        lost: `${label} content_patterns entry ${JSON.stringify(entry)} names no \`path\`; not imported`,
      });
      continue;
    }
    const path = entry.path;
    for (const source of [...strings(entry.must_match), ...strings(entry.regex_match)]) {
      const { pattern, flags } = jsPattern(source);
      results.push({
        assertion: {
          id: nextId(),
          kind: 'workspace',
          method: 'file-contains',
          path,
          pattern,
          ...(flags ? { flags } : {}),
        },
        note: `${label} ${JSON.stringify(path)} must match ${JSON.stringify(source)} → workspace/file-contains`,
      });
    }
    for (const source of [...strings(entry.must_not_match), ...strings(entry.regex_not_match)])
      results.push({
        lost: `${label} ${JSON.stringify(path)} must not match ${JSON.stringify(source)}: no Skeval equivalent; not imported: write it as a judged claim`,
      });
  }
  return results.length > 0 ? results : [{ lost: `${label} checks no file; not imported` }];
}

function judgedText(text: unknown, label: string): MappedAssertion[] {
  if (typeof text !== 'string' || text.trim() === '') return [{ lost: `${label} has no prompt text; not imported` }];
  if (!/\s/.test(text.trim()) && /\.(md|txt|ya?ml)$/i.test(text.trim()))
    return [{ lost: `${label} names a rubric file (${text.trim()}); not read: write its lines as judged claims` }];
  return [{ assertion: text.trim(), note: `${label} → a judged claim` }];
}

function skillInvocations(config: Record<string, unknown>, nextId: NextId, label: string): MappedAssertion[] {
  const required = strings(config.required_skills);
  const results: MappedAssertion[] = required.map((skill) => ({
    assertion: { id: nextId(), kind: 'behavior', method: 'skill-read', skill },
    note: `${label} required ${JSON.stringify(skill)} → behavior/skill-read`,
  }));
  const mode = typeof config.mode === 'string' ? config.mode : undefined;
  if (required.length > 1 && mode !== undefined && mode !== 'any_order')
    results.push({
      lost: `${label} \`mode: ${mode}\` (the order of the skills, or no others) is not checked: Skeval checks that each skill was read`,
    });
  return results.length > 0 ? results : [{ lost: `${label} names no required skill; not imported` }];
}

function actionSequence(config: Record<string, unknown>, nextId: NextId, label: string): MappedAssertion[] {
  const tools = strings(config.expected_actions);
  const mode = typeof config.matching_mode === 'string' ? config.matching_mode : 'exact_match';
  const order = mode === 'any_order_match' ? 'any-order' : 'in-order';
  if (tools.length === 0) return [{ lost: `${label} names no \`expected_actions\`; not imported` }];
  const results: MappedAssertion[] = [
    {
      assertion: { id: nextId(), kind: 'behavior', method: 'tool-order', tools, order },
      note: `${label} ${mode} → behavior/tool-order ${order} (tool names are the agent's own)`,
    },
  ];
  if (mode === 'exact_match')
    results.push({
      lost: `${label} \`exact_match\` (no other tool calls between them) is read as in-order: Skeval allows other calls between`,
    });
  return results;
}
