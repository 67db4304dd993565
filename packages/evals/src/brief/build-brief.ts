import { SkevalError } from '@skeval/schema';
import { resolveCaseGraders } from '../graders/case-graders.js';
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
  /** One line per assertion. */
  criteria: string[];
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
      briefs.push({
        skill: skill.name,
        id: evalCase.id,
        name: evalCase.name,
        prompt: evalCase.prompt,
        files: evalCase.files.map((file) => (file.content === undefined ? file.path : `${file.path} (inline)`)),
        setup: evalCase.setup ?? null,
        expected_output: evalCase.expectedOutput ?? null,
        criteria: evalCase.assertions.map((assertion) => describeAssertion(assertion, graders)),
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
        'Input:',
        indent(brief.prompt),
      ];
      if (brief.files.length) lines.push(`Files: ${brief.files.join(', ')}`);
      if (brief.setup) lines.push(`Setup: ${JSON.stringify(brief.setup)}`);
      lines.push(
        '',
        'Expected output:',
        indent(brief.expected_output ?? '(none given)'),
        '',
        'Criteria:',
        ...brief.criteria.map((criterion) => `- ${criterion}`),
      );
      return lines.join('\n');
    })
    .join('\n\n')
    .concat('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
