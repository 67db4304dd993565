import { SkevalError } from '@skeval/schema';
import { resolveCaseGraders } from '../graders/case-graders.js';
import { caseTurns } from '../load/case-turns.js';
import { discoverSkills } from '../skills/discover-skills.js';
import { describeAssertion } from './describe-assertion.js';

/** What a reviewer (or an external grading agent) reads to know what one case checks. */
export interface CaseBrief {
  skill: string;
  id: string;
  name: string;
  prompt: string;
  files: string[];
  setup: unknown;
  expected_output: string | null;
  /** One line per assertion: for a multi-turn case, those of the end state. */
  criteria: string[];
  /**
   * A multi-turn case (or one whose turn has assertions of its own): each turn's prompt and the
   * criteria graded on that turn's response, in order. `prompt` is the first turn's.
   */
  turns?: Array<{ turn: number; prompt: string; criteria: string[] }>;
}

/** The grading brief of each case of a skill (or of the skill holding an evals file). */
export async function buildBrief(options: { path: string; cases?: string[]; cwd?: string }): Promise<CaseBrief[]> {
  const cwd = options.cwd ?? process.cwd();
  const path = options.path.replace(/[\\/]evals[\\/]evals\.json$/, '') || '.';
  const skills = await discoverSkills({ path, cwd, ...(options.cases ? { cases: options.cases } : {}) });
  const briefs: CaseBrief[] = [];
  for (const skill of skills) {
    if (!skill.load.evals)
      throw new SkevalError({
        code: 'invalid_input',
        message: `${skill.evalsPath}: the evals file is invalid; run \`skeval validate\` on it`,
      });
    const graders = await resolveCaseGraders(skill.load.evals.cases, skill.dir);
    for (const evalCase of skill.load.evals.cases) {
      const turns = caseTurns(evalCase);
      const shown = turns.length > 1 || turns.some((turn) => turn.assertions.length > 0);
      briefs.push({
        skill: skill.name,
        id: evalCase.id,
        name: evalCase.name,
        prompt: evalCase.prompt,
        files: evalCase.files.map((file) => (file.content === undefined ? file.path : `${file.path} (inline)`)),
        setup: evalCase.setup ?? null,
        expected_output: evalCase.expectedOutput ?? null,
        criteria: evalCase.assertions.map((assertion) => describeAssertion(assertion, graders)),
        ...(shown
          ? {
              turns: turns.map((turn, index) => ({
                turn: index + 1,
                prompt: turn.prompt,
                criteria: turn.assertions.map((assertion) => describeAssertion(assertion, graders)),
              })),
            }
          : {}),
      });
    }
  }
  return briefs;
}

/** The briefs as text: one section per case. */
export function renderBrief(briefs: CaseBrief[]): string {
  return briefs
    .map((brief) => {
      const lines = [
        `## ${brief.skill} / ${brief.id}${brief.name !== brief.id ? ` — ${brief.name}` : ''}`,
        '',
        ...(brief.turns ? renderTurns(brief.turns) : ['Input:', indent(brief.prompt)]),
      ];
      if (brief.files.length) lines.push(`Files: ${brief.files.join(', ')}`);
      if (brief.setup) lines.push(`Setup: ${JSON.stringify(brief.setup)}`);
      lines.push(
        '',
        'Expected output:',
        indent(brief.expected_output ?? '(none given)'),
        '',
        brief.turns ? 'Criteria (the end state: the last response and the workspace):' : 'Criteria:',
        ...brief.criteria.map((criterion) => `- ${criterion}`),
      );
      return lines.join('\n');
    })
    .join('\n\n')
    .concat('\n');
}

/** Each turn of a multi-turn case: what the user says, then what that turn's response must hold. */
function renderTurns(turns: NonNullable<CaseBrief['turns']>): string[] {
  return turns.flatMap((turn) => [
    `Turn ${turn.turn} of ${turns.length}:`,
    indent(turn.prompt),
    ...(turn.criteria.length
      ? ['  Criteria for this turn:', ...turn.criteria.map((criterion) => `  - ${criterion}`)]
      : []),
  ]);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
