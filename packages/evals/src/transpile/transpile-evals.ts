import { resolve } from 'node:path';
import { SkevalError } from '@skeval/schema';
import type { NormalizedAssertion } from '@skeval/schema/internal';
import { formatPointer } from '@skeval/schema/internal';
import type { GraderInput } from '@skeval/scripts/internal';
import { quote } from 'shell-quote';
import { describeAssertion } from '../brief/describe-assertion.js';
import { type CaseGrader, resolveCaseGraders } from '../graders/case-graders.js';
import { formatIssue } from '../load/issues.js';
import type { LoadedCase } from '../load/types.js';
import { loadEvalsFileFromDisk, skillDirOf } from '../skills/load-from-disk.js';
import { readSkillManifest } from '../skills/read-skill-manifest.js';

/** What an external grading agent substitutes (quoted for its shell) into a transpiled command. */
export const gradingPlaceholders = {
  output: '<the response>',
  input: '<the prompt>',
  expectedOutput: '<the expected output>',
  workspace: '<the workspace folder>',
  trace: '<the trace.json of the run>',
  skill: '<the skill folder>',
} as const;

/** One case of a plain evals file: Anthropic's format, every assertion a string. */
export interface PlainEvalsCase {
  id: string | number;
  prompt: string;
  expected_output?: string;
  /** Paths; a file with inline content keeps its `{ path, content }` form (see the notes). */
  files?: Array<string | { path: string; content: string }>;
  assertions?: string[];
  expectations?: string[];
}

export interface PlainEvalsFile {
  skill_name: string;
  version?: string | number;
  evals: PlainEvalsCase[];
}

export interface TranspileResult {
  evals: PlainEvalsFile;
  /** What the plain file does not carry, each with its place in the original. */
  notes: string[];
}

const resultSentence = 'It prints JSON `{"score": 0-1, "assertions": [...]}`; a score ≥ 0.5 means pass (exit 0).';
const flagOf: Record<Exclude<GraderInput, 'output'>, string> = {
  workspace: `--workspace ${gradingPlaceholders.workspace}`,
  trace: `--trace ${gradingPlaceholders.trace}`,
  skill: `--skill ${gradingPlaceholders.skill}`,
};

/**
 * Turns an evals file into a plain one an external grading agent can carry out: prose claims stay
 * as written, and each deterministic assertion becomes an instruction to run the equivalent
 * `skeval assert` command, whose verdict is the one Skeval would give.
 */
export async function transpileEvals(options: { path: string; cwd?: string }): Promise<TranspileResult> {
  const absolutePath = resolve(options.cwd ?? process.cwd(), options.path);
  const load = await loadEvalsFileFromDisk(absolutePath, options.path);
  if (!load.evals) {
    const shown = load.errors.slice(0, 3).map((issue) => formatIssue(options.path, issue));
    const more =
      load.errors.length > 3 ? `\n(and ${load.errors.length - 3} more: run \`skeval validate ${options.path}\`)` : '';
    throw new SkevalError({
      code: 'invalid_input',
      message: `${options.path} is not a valid evals file:\n${shown.join('\n')}${more}`,
    });
  }
  const skillDir = skillDirOf(absolutePath);
  const skillName = load.evals.skillName ?? (await readSkillManifest(skillDir)).name;
  const graders = await resolveCaseGraders(load.evals.cases, skillDir);
  const notes: string[] = [];
  const cases = load.evals.cases.map((evalCase) => transpileCase(evalCase, { skillName, graders, notes }));
  return {
    evals: {
      skill_name: skillName,
      ...(load.evals.version === undefined ? {} : { version: load.evals.version }),
      evals: cases,
    },
    notes,
  };
}

interface TranspileContext {
  skillName: string;
  /** The graders the cases name, resolved from the skill folder. */
  graders: ReadonlyMap<string, CaseGrader>;
  notes: string[];
}

function transpileCase(evalCase: LoadedCase, context: TranspileContext): PlainEvalsCase {
  const where = (...path: Array<string | number>) => formatPointer(['evals', evalCase.index, ...path]);
  const dropped = [
    ...(evalCase.setup ? ['setup'] : []),
    ...(Object.keys(evalCase.metadata).length ? ['metadata'] : []),
    ...(evalCase.description === undefined ? [] : ['description']),
    ...Object.keys(evalCase.extra),
  ];
  if (dropped.length)
    context.notes.push(
      `${where()}: not carried over (the plain format has no place for it): ${dropped.map((key) => `\`${key}\``).join(', ')}`,
    );
  evalCase.files.forEach((file, index) => {
    if (file.content !== undefined)
      context.notes.push(
        `${where('files', index)}: \`${file.path}\` has inline content, kept as { path, content }: readers that take only paths need it written to a file`,
      );
  });
  const lists: Pick<PlainEvalsCase, 'assertions' | 'expectations'> = {};
  for (const assertion of evalCase.assertions) {
    if (assertion.mustPass)
      context.notes.push(`${where(assertion.list, assertion.index)}: \`mustPass\` is not carried over`);
    const list = lists[assertion.list] ?? [];
    lists[assertion.list] = list;
    list.push(assertionInstruction(assertion, evalCase, context));
  }
  return {
    id: evalCase.rawId ?? (/^\d+$/.test(evalCase.id) ? Number(evalCase.id) : evalCase.id),
    prompt: evalCase.prompt,
    ...(evalCase.expectedOutput === undefined ? {} : { expected_output: evalCase.expectedOutput }),
    ...(evalCase.files.length
      ? {
          files: evalCase.files.map((file) =>
            file.content === undefined ? file.path : { path: file.path, content: file.content },
          ),
        }
      : {}),
    ...lists,
  };
}

/** The plain-language form of one assertion: a claim as written, or the `skeval assert` command that decides it. */
function assertionInstruction(
  assertion: NormalizedAssertion,
  evalCase: Pick<LoadedCase, 'expectedOutput'>,
  context: Pick<TranspileContext, 'skillName' | 'graders'>,
): string {
  const { spec } = assertion;
  if (spec.mode === 'judge') return spec.claim;
  const resolved = context.graders.get(spec.grader)?.resolved;
  const builtIn = resolved?.kind === 'built-in' ? resolved.grader : undefined;
  // No grader of that name: Skeval judges the object's prose, and so does the grading agent.
  if (resolved?.kind !== 'built-in' && resolved?.kind !== 'custom' && spec.fallbackClaim) return spec.fallbackClaim;
  const config =
    builtIn?.name === 'behavior-skill-read' && spec.config.skill === undefined
      ? { ...spec.config, skill: context.skillName }
      : spec.config;
  // `skeval assert` always takes the response; the other inputs only where the grader reads them.
  const inputs = (builtIn ? builtIn.reads : (['workspace', 'trace', 'skill'] as const)).filter(
    (input): input is Exclude<GraderInput, 'output'> => input !== 'output',
  );
  const flags = [
    `--agent-output ${gradingPlaceholders.output}`,
    ...(builtIn ? [] : [`--agent-input ${gradingPlaceholders.input}`]),
    ...(!builtIn && evalCase.expectedOutput !== undefined
      ? [`--expected-output ${gradingPlaceholders.expectedOutput}`]
      : []),
    ...inputs.map((input) => flagOf[input]),
    ...(Object.keys(config).length ? [`--config ${quote([JSON.stringify(config)])}`] : []),
  ];
  const command = `skeval assert ${spec.grader} ${flags.join(' ')}`;
  const what = builtIn
    ? `This check: ${describeAssertion({ ...assertion, spec: { ...spec, config } }, context.graders).replace(/^\[\w+\] /, '')}.`
    : `This grader: ${customGraderSummary(spec.grader, context.graders)}`.replace(/([^.])$/, '$1.');
  return `Run \`${command}\` and check the result. ${what} ${resultSentence}`;
}

function customGraderSummary(name: string, graders: ReadonlyMap<string, CaseGrader>): string {
  const grader = graders.get(name);
  if (grader?.resolved.kind !== 'custom')
    return `no grader named ${name} was found in .skeval/graders/ or .agentv/graders/, so this assertion is an error until one is added`;
  return grader.description ?? 'it gives no description';
}
