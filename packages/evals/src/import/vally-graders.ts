import { isRecord } from './detect-format.js';
import type { MappedAssertion } from './map-assertion.js';

/** The text graders Vally shares with Skeval's `output` intents, by the config key holding their value. */
const outputGraders: Record<string, { method: string; key: string }> = {
  'output-contains': { method: 'contains', key: 'substring' },
  'output-not-contains': { method: 'not-contains', key: 'substring' },
  'output-equals': { method: 'exact', key: 'value' },
};
/** Vally's metric graders that are one of Skeval's budgets (`config.max`). */
const budgetGraders: Record<string, string> = {
  'token-budget': 'maxTokens',
  'tool-call-count': 'maxToolCalls',
  'wall-time': 'maxDurationMs',
};
const outcomeOnly = new Set(['exit-success', 'completed']);

/**
 * One grader of a Vally stimulus as Skeval's: output text checks as `output` intents, a pattern
 * (with a leading `(?i)` read as the `i` flag) as `output/regex`, `skill-invocation`'s required
 * skills as `behavior/skill-read`, the metric graders Skeval budgets as `behavior/budget`. The
 * `prompt` grader is the stimulus's `rubric` (read by the caller). Everything else is lost, with why.
 */
export function mapVallyGrader(source: unknown, id: string, where: string): MappedAssertion[] {
  if (!isRecord(source)) return [{ lost: `${where}: not a grader (${JSON.stringify(source)}); not imported` }];
  const type = typeof source.type === 'string' ? source.type : '';
  const config = isRecord(source.config) ? source.config : {};
  const label = `${where}: \`${type || 'no type'}\``;
  const output = outputGraders[type];
  const value = output ? config[output.key] : undefined;
  if (output && typeof value === 'string' && value !== '')
    return [
      { assertion: { id, kind: 'output', method: output.method, value }, note: `${label} → output/${output.method}` },
    ];
  if (type === 'output-matches' && typeof config.pattern === 'string') {
    const { pattern, flags } = jsPattern(config.pattern);
    return [
      {
        assertion: { id, kind: 'output', method: 'regex', pattern, ...(flags ? { flags } : {}) },
        note: `${label} → output/regex${flags ? ` (flags ${JSON.stringify(flags)})` : ''}`,
      },
    ];
  }
  if (type === 'skill-invocation') return skillInvocation(config, id, label);
  const budget = budgetGraders[type];
  if (budget) {
    const limit = type === 'wall-time' ? durationMs(config.max) : config.max;
    if (typeof limit === 'number' && Number.isFinite(limit) && limit >= 0)
      return [
        {
          assertion: { id, kind: 'behavior', method: 'budget', [budget]: limit },
          note: `${label} → behavior/budget ${budget}: ${limit}`,
        },
      ];
    return [
      { lost: `${label}: \`config.max\` ${JSON.stringify(config.max)} is not a limit Skeval reads; not imported` },
    ];
  }
  if (outcomeOnly.has(type))
    return [
      {
        lost: `${label}: an agent that fails or times out is already an \`error\` verdict in Skeval; nothing to import`,
      },
    ];
  if (type === 'output-not-matches')
    return [
      {
        lost: `${label} has no Skeval equivalent (a pattern that must not match); not imported: write it as a judged claim`,
      },
    ];
  if (type === 'program')
    return [
      {
        lost: `${label} runs a program in Vally; not imported: write it as a grader in .skeval/graders/ (defineScriptGrader), the contract \`skeval assert\` shares`,
      },
    ];
  return [{ lost: `${label} has no Skeval equivalent; not imported` }];
}

function skillInvocation(config: Record<string, unknown>, id: string, label: string): MappedAssertion[] {
  const required = Array.isArray(config.required) ? config.required.filter((name) => typeof name === 'string') : [];
  const mapped: MappedAssertion[] = required.map((skill, at) => ({
    assertion: { id: required.length > 1 ? `${id}-${at + 1}` : id, kind: 'behavior', method: 'skill-read', skill },
    note: `${label} required ${JSON.stringify(skill)} → behavior/skill-read`,
  }));
  if (Array.isArray(config.disallowed) && config.disallowed.length > 0)
    mapped.push({
      lost: `${label} disallowed ${JSON.stringify(config.disallowed)}: Skeval has no "skill not read" assertion; not imported: write the prompt as a trigger query (\`"should_trigger": false\`) for \`skeval triggers\``,
    });
  return mapped.length > 0 ? mapped : [{ lost: `${label} names no required skill; not imported` }];
}

/** A pattern as JavaScript takes it: Vally's (Go/.NET) leading `(?i)` becomes the `i` flag. */
export function jsPattern(source: string): { pattern: string; flags?: string } {
  return source.startsWith('(?i)') ? { pattern: source.slice(4), flags: 'i' } : { pattern: source };
}

/** `"5m"`, `"90s"`, `"1h"`, `"250ms"` or a number of seconds, in milliseconds. */
function durationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return value * 1000;
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value.trim()) : null;
  if (!match) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's'] ?? 1000;
  return Number(match[1]) * unit;
}
