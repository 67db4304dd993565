import type { NormalizedAssertion } from '@skeval/schema/internal';
import type { CaseGrader } from '../graders/case-graders.js';

const pattern = (config: Record<string, unknown>, field = 'pattern') =>
  `/${String(config[field])}/${typeof config.flags === 'string' ? config.flags : ''}`;
const list = (value: unknown) =>
  Array.isArray(value) ? value.map((item) => JSON.stringify(item)).join(', ') : JSON.stringify(value);

/** One assertion as a reviewer reads it: a claim as written, a check in words. */
export function describeAssertion(assertion: NormalizedAssertion, graders: ReadonlyMap<string, CaseGrader>): string {
  const { spec } = assertion;
  if (spec.mode === 'judge') return spec.claim;
  const config = spec.config;
  const bounds = (unit: string) =>
    `${[
      config.min === undefined ? '' : `at least ${config.min}`,
      config.max === undefined ? '' : `at most ${config.max}`,
    ]
      .filter(Boolean)
      .join(' and ')} ${unit}`;
  switch (spec.grader) {
    case 'file-exists':
    case 'workspace-file-exists':
      return `[check] the file ${config.path} exists in the workspace`;
    case 'regex-match': {
      const { target } = config;
      return typeof target === 'object' && target !== null && 'file' in target && target.file
        ? `[check] ${target.file} matches ${pattern(config)}`
        : `[check] the response matches ${pattern(config)}`;
    }
    case 'json-valid':
      return `[check] ${config.path} is valid JSON`;
    case 'workspace-json-valid':
      return `[check] ${config.path} is valid JSON${config.schema === undefined ? '' : ` satisfying ${typeof config.schema === 'string' ? `the schema ${config.schema}` : 'a JSON Schema'}`}`;
    case 'workspace-file-contains':
      return config.pattern === undefined
        ? `[check] ${config.path} contains ${JSON.stringify(config.value)}`
        : `[check] ${config.path} matches ${pattern(config)}`;
    case 'workspace-snapshot-diff':
      return `[check] ${config.path ?? 'the workspace'} is identical to evals/${config.expected}${Array.isArray(config.ignore) ? ` (ignoring ${config.ignore.join(', ')})` : ''}`;
    case 'output-regex':
      return `[check] the response matches ${pattern(config)}`;
    case 'output-exact':
      return `[check] the response is exactly ${JSON.stringify(config.value)}`;
    case 'output-contains':
    case 'output-icontains':
      return `[check] the response contains ${config.match === 'any' ? 'one of' : Array.isArray(config.value) ? 'all of' : ''} ${list(config.value)}${spec.grader === 'output-icontains' ? ' (any case)' : ''}`.replace(
        '  ',
        ' ',
      );
    case 'output-not-contains':
      return `[check] the response contains none of ${list(config.value)}`;
    case 'output-length':
      return `[check] the response is ${bounds(String(config.unit ?? 'words'))}`;
    case 'output-json-valid':
      return '[check] the response is valid JSON';
    case 'behavior-tool-called':
      return `[behavior] the agent called ${config.tool}${config.argsPattern ? ` with arguments matching ${pattern(config, 'argsPattern')}` : ''}`;
    case 'behavior-tool-not-called':
      return `[behavior] the agent never called ${config.tool}${config.argsPattern ? ` with arguments matching ${pattern(config, 'argsPattern')}` : ''}`;
    case 'behavior-tool-order':
      return `[behavior] the agent called ${(Array.isArray(config.tools) ? config.tools : []).join(config.order === 'any-order' ? ', ' : ' then ')}${config.order === 'any-order' ? ' (in any order)' : ''}`;
    case 'behavior-tool-count':
      return `[behavior] ${bounds(config.tool ? `calls to ${config.tool}` : 'tool calls')}`;
    case 'behavior-skill-read':
      return `[behavior] the agent read the SKILL.md of ${config.skill ?? 'the skill under test'}`;
    case 'behavior-command-ran':
      return `[behavior] the agent ran a command matching ${pattern(config)}`;
    case 'behavior-command-not-run':
      return `[behavior] the agent ran no command matching ${pattern(config)}`;
    case 'behavior-budget':
      return `[behavior] within budget: ${[config.maxTokens === undefined ? '' : `≤ ${config.maxTokens} tokens`, config.maxDurationMs === undefined ? '' : `≤ ${config.maxDurationMs} ms`, config.maxToolCalls === undefined ? '' : `≤ ${config.maxToolCalls} tool calls`, config.maxCostUsd === undefined ? '' : `≤ $${config.maxCostUsd}`].filter(Boolean).join(', ')}`;
    case 'safety-no-write-outside-workspace':
      return `[safety] nothing written outside the workspace${Array.isArray(config.allow) ? ` (allowed: ${config.allow.join(', ')})` : ''}`;
    case 'safety-no-denied-commands':
      return `[safety] no denied command (${config.replaceDefaults ? '' : 'rm -rf, git push --force, curl | sh'}${Array.isArray(config.deny) ? `${config.replaceDefaults ? '' : ', '}${config.deny.map((entry) => `/${entry}/`).join(', ')}` : ''})`;
    case 'safety-no-secrets':
      return '[safety] no provider key or listed secret in the response, the files or the trace';
    case 'safety-no-network':
      return `[safety] no network use${Array.isArray(config.allow) ? ` except ${config.allow.join(', ')}` : ''}`;
    default: {
      const grader = graders.get(spec.grader);
      const description =
        grader && grader.resolved.kind !== 'missing' ? (grader.description ?? 'no description given') : undefined;
      const fallback = spec.fallbackClaim ? ` (if no such grader exists, the judge grades: ${spec.fallbackClaim})` : '';
      return `[script-grader] ${spec.grader}: ${description ?? 'no grader of this name was found'}${fallback}`;
    }
  }
}
