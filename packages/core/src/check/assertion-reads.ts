import type { NormalizedAssertion } from '@skeval/schema/internal';
import { type RegexRunner, resolveGrader } from '@skeval/scripts/internal';
import { fileTarget, type MatchedSpan, responseTarget, textOf } from './mutants.js';

/** What an assertion reads of a case run's end state: which mutants can change its verdict. */
export interface AssertionReads {
  response: boolean;
  /** The output files it reads by name, or `any` (the judge, a custom grader, a check of the whole workspace). */
  files: readonly string[] | 'any';
  trace: boolean;
  /** A judged claim (or a missing grader whose assertion falls back to one). */
  judged: boolean;
  /** A safety guard (`safety-*`): it holds when nothing is done, by design. */
  guard: boolean;
}

/** What `assertion` reads, from its grader's declared inputs and its config's path. */
export function assertionReads(assertion: NormalizedAssertion, skillDir: string): AssertionReads {
  const { spec } = assertion;
  const judged = { response: true, files: 'any', trace: false, judged: true, guard: false } as const;
  if (spec.mode === 'judge') return judged;
  const resolved = resolveGrader(spec.grader, { from: skillDir });
  if (resolved.kind === 'missing')
    return spec.fallbackClaim ? judged : { response: false, files: [], trace: false, judged: false, guard: false };
  if (resolved.kind !== 'built-in') return { response: true, files: 'any', trace: true, judged: false, guard: false };
  const reads = resolved.grader.reads;
  const path = pathOf(spec.config);
  const onResponse = spec.grader === 'regex-match' ? path === undefined : reads.includes('output');
  return {
    response: onResponse,
    files: reads.includes('workspace') ? (path === undefined ? (onResponse ? [] : 'any') : [path]) : [],
    trace: reads.includes('trace'),
    judged: false,
    guard: spec.grader.startsWith('safety-'),
  };
}

/** The file a check names: `path`, or a `regex-match`'s `target.file`. */
function pathOf(config: Record<string, unknown>): string | undefined {
  if (typeof config.path === 'string') return config.path;
  const target = config.target;
  if (typeof target === 'object' && target !== null && 'file' in target && typeof target.file === 'string')
    return target.file;
  return undefined;
}

const contentGraders = new Set([
  'output-regex',
  'output-contains',
  'output-icontains',
  'regex-match',
  'workspace-file-contains',
]);

/**
 * The spans the content assertions match in the reference (the first match of each), for the
 * `span-removed` mutants. Patterns run in the time-bounded regex worker, as grading runs them.
 */
export async function matchedSpans(options: {
  assertions: readonly NormalizedAssertion[];
  response: string;
  files: ReadonlyMap<string, Buffer>;
  regex: RegexRunner;
}): Promise<MatchedSpan[]> {
  const spans: MatchedSpan[] = [];
  for (const [index, assertion] of options.assertions.entries()) {
    const { spec } = assertion;
    if (spec.mode !== 'grader' || !contentGraders.has(spec.grader)) continue;
    const path = pathOf(spec.config);
    const onFile = spec.grader === 'workspace-file-contains' || (spec.grader === 'regex-match' && path !== undefined);
    const content = onFile && path !== undefined ? options.files.get(path) : undefined;
    const text = onFile ? (content ? textOf(content) : undefined) : options.response;
    if (text === undefined) continue;
    const target = onFile && path !== undefined ? fileTarget(path) : responseTarget;
    const found = await findSpan(spec.config, text, options.regex, spec.grader === 'output-icontains');
    if (found) spans.push({ assertion: index, target, ...found });
  }
  return spans;
}

async function findSpan(
  config: Record<string, unknown>,
  text: string,
  regex: RegexRunner,
  ignoreCase: boolean,
): Promise<{ index: number; length: number } | undefined> {
  if (typeof config.pattern === 'string') {
    const flags = typeof config.flags === 'string' ? config.flags : undefined;
    const [outcome] = await regex.run([{ pattern: config.pattern, ...(flags ? { flags } : {}), text }]);
    return outcome?.status === 'match' ? { index: outcome.index, length: outcome.match.length } : undefined;
  }
  const values = (Array.isArray(config.value) ? config.value : [config.value]).filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  const [value] = values;
  if (value === undefined) return undefined;
  const index = ignoreCase ? text.toLowerCase().indexOf(value.toLowerCase()) : text.indexOf(value);
  return index === -1 ? undefined : { index, length: value.length };
}
