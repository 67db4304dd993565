import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { NormalizedAssertion } from '@skeval/schema/internal';
import type { LoadedCase } from '../load/types.js';

/** What the checks below say of one assertion: the rule and the warning, with its fix. */
export interface VacuousCheck {
  rule: 'empty-match-pattern' | 'provided-file-exists' | 'negated-absent-value';
  message: string;
}

const patternGraders = new Set(['regex-match', 'output-regex', 'workspace-file-contains']);
const existsGraders = new Set(['file-exists', 'workspace-file-exists']);
/** The most of a case's input file read for the words it mentions. */
const maxInputBytes = 1_000_000;

/**
 * The checks that pass on nothing, found without running anything: a pattern that matches the
 * empty string, a `file-exists` of a file the case itself provides, a `not-contains` of a value
 * that nothing the agent is given mentions. (A `contains` of the empty string is an error when
 * the file loads, in every form it can be written.)
 */
export function vacuousChecks(
  assertion: NormalizedAssertion,
  evalCase: LoadedCase,
  context: { skillDir: string; skillMarkdown?: string; inputsText: () => string },
): VacuousCheck[] {
  const { spec } = assertion;
  if (spec.mode !== 'grader') return [];
  const { grader, config } = spec;
  const found: VacuousCheck[] = [];
  const pattern = typeof config.pattern === 'string' ? config.pattern : undefined;
  if (pattern !== undefined && patternGraders.has(grader) && matchesEmpty(pattern, config.flags)) {
    const alternation = /(^|[^\\])\|/.test(pattern);
    found.push({
      rule: 'empty-match-pattern',
      message: `the pattern ${JSON.stringify(pattern)} matches the empty string, so it passes on any text${alternation ? ': an unescaped `|` splits it into alternatives, one of them empty; write `\\|` for a literal bar' : '; make it require the text a right answer has'} (or use a literal \`value\`)`,
    });
  }
  const values = (Array.isArray(config.value) ? config.value : [config.value]).filter(
    (value): value is string => typeof value === 'string',
  );
  const path = typeof config.path === 'string' ? config.path : undefined;
  if (path !== undefined && existsGraders.has(grader) && providedPaths(evalCase).has(path.replace(/^\.\//, '')))
    found.push({
      rule: 'provided-file-exists',
      message: `${path} is one of the case's own \`files\`: it is in the workspace before the agent starts, so this passes on an agent that did nothing; check a file the agent writes, or what it changed in this one (\`workspace\`/\`file-contains\`); to check that the agent kept it, keep this beside a check of what the agent did`,
    });
  if (grader === 'output-not-contains') {
    const given = `${evalCase.prompt}\n${context.skillMarkdown ?? ''}\n${context.inputsText()}`.toLowerCase();
    const absent = values.filter((value) => value !== '' && !given.includes(value.toLowerCase()));
    if (absent.length)
      found.push({
        rule: 'negated-absent-value',
        message: `nothing the agent is given mentions ${absent.map((value) => JSON.stringify(value)).join(', ')} (not the prompt, SKILL.md or the case's files), so this passes on almost any answer, an empty one first; check what a right answer holds, and keep a negated check only beside one`,
      });
  }
  return found;
}

function matchesEmpty(pattern: string, flags: unknown): boolean {
  try {
    return new RegExp(pattern, typeof flags === 'string' ? flags.replace(/[gy]/g, '') : '').test('');
  } catch {
    return false;
  }
}

/** The paths a case's `files` and `setup` put in the workspace, as written. */
function providedPaths(evalCase: LoadedCase): Set<string> {
  const paths = new Set(evalCase.files.map((file) => file.path.replace(/^\.\//, '')));
  if (evalCase.setup?.kind === 'seeded')
    for (const source of evalCase.setup.sources) paths.add((source.to ?? source.from).replace(/^\.\//, ''));
  return paths;
}

/** The text of a case's input files (inline, or read from the skill folder, each up to 1 MB). */
export function inputsTextOf(evalCase: LoadedCase, skillDir: string): string {
  return evalCase.files
    .map((file) => {
      if (file.content !== undefined) return file.content;
      for (const candidate of [join(skillDir, file.path), join(skillDir, 'evals', file.path)]) {
        try {
          if (statSync(candidate).size <= maxInputBytes) return readFileSync(candidate, 'utf8');
        } catch {
          // Not there, or a folder: the next candidate, or nothing.
        }
      }
      return '';
    })
    .join('\n');
}
