import type { SkillHints } from './skill-hints.js';

/** The marker of every value `skeval init` leaves for the author to fill in. */
const placeholderMarker = 'TODO';

/**
 * Whether a prompt is still a placeholder to fill in: it starts with `TODO` (as `skeval init`
 * writes them, `TODO: write what a user would ask here`). A prompt that only mentions a TODO
 * further on is a real request.
 */
export function isPlaceholderPrompt(prompt: string): boolean {
  return /^TODO\b/.test(prompt.trim());
}

export interface BuildStarterEvalsOptions {
  skillName: string;
  hints: SkillHints;
  /** Cases the skill is for; a negative control is added after them. */
  cases: number;
  /** The prompts of those cases, in order; a missing or empty one is a placeholder. */
  prompts?: readonly string[];
  /** `$schema`: where the JSON Schema of evals files is, from the evals file's folder. */
  schemaPath: string;
}

/** A starter evals file (not yet written): the JSON value, in the order its keys are written. */
export interface StarterEvals {
  $schema: string;
  skill_name: string;
  evals: StarterCase[];
}

interface StarterCase {
  id: string;
  description: string;
  prompt: string;
  metadata?: { negative_control: true };
  assertions: Array<Record<string, unknown>>;
}

/** The ids of the negative control, kept apart so no case the skill is for takes them. */
const controlId = 'unrelated-request';

/**
 * What `skeval init` writes: `cases` cases the skill is for, each with script checks to edit
 * (the skill read, a file the description names or a placeholder the author replaces, no denied
 * commands), then a negative control marked `"metadata": { "negative_control": true }`.
 */
export function buildStarterEvals(options: BuildStarterEvalsOptions): StarterEvals {
  const { hints } = options;
  const ids = new Set<string>([controlId]);
  const cases = Array.from({ length: options.cases }, (_, at) => {
    const situation = hints.situations[at];
    const given = options.prompts?.[at]?.trim();
    const id = uniqueId(situation ? slugOf(situation) : undefined, fallbackId(options.skillName, at), ids);
    const about = situation ? ` (${situation})` : '';
    const starter: StarterCase = {
      id,
      description: given
        ? `A request the skill is for${about}. ${placeholderMarker}: make the checks say what a good result of this prompt holds.`
        : `A request the skill is for${about}. ${placeholderMarker}: write the prompt as a user would, then make the checks say what a good result holds.`,
      prompt:
        given ||
        `${placeholderMarker}: write what a user would ask here${situation ? `; this case is about: ${situation}` : ''}`,
      assertions: assertionsFor(hints.files[at % Math.max(1, hints.files.length)]),
    };
    return starter;
  });
  const control: StarterCase = {
    id: controlId,
    description: `Negative control: a request the skill is not for, so the answer should be the same with and without it. ${placeholderMarker}: a nearby request the skill should leave alone makes a sharper control.`,
    prompt: 'What is 17 times 23? Reply with the number only.',
    metadata: { negative_control: true },
    assertions: [
      { id: 'right-answer', kind: 'output', method: 'contains', value: '391' },
      { id: 'short-answer', kind: 'output', method: 'length', unit: 'words', max: 5 },
    ],
  };
  return { $schema: options.schemaPath, skill_name: options.skillName, evals: [...cases, control] };
}

function assertionsFor(file: string | undefined): Array<Record<string, unknown>> {
  const outcome: Array<Record<string, unknown>> = file
    ? [
        { id: `writes-${kebabOf(file)}`, kind: 'workspace', method: 'file-exists', path: file },
        {
          id: `${kebabOf(file)}-content`,
          kind: 'workspace',
          method: 'file-contains',
          path: file,
          value: `${placeholderMarker}: text ${file} must hold`,
        },
      ]
    : [
        {
          id: 'reply-content',
          kind: 'output',
          method: 'contains',
          value: `${placeholderMarker}: text the reply must contain`,
        },
      ];
  return [
    { id: 'reads-the-skill', kind: 'behavior', method: 'skill-read' },
    ...outcome,
    { id: 'no-denied-commands', kind: 'safety', method: 'no-denied-commands' },
  ];
}

// Words that would make a case read as a negative control by its id (docs/lint.md).
const controlWords = /(?:^|-)(?:negative|control|no-trigger|off-topic|out-of-scope|unrelated)(?:-|$)/;

// Words that say nothing of what a case is about: articles, prepositions, pronouns, and the
// wrapping of a description's first sentence ("a set of resources to help me write …").
const fillerWords = new Set(
  (
    'a an the to of for with and or in on at by from into me my our your their its it this that these those ' +
    'all any some kind kinds sort sorts set sets suite collection resources resource tools toolkit guide ' +
    'help helps helper helpers utilities use uses using etc e g i'
  ).split(' '),
);

/**
 * A case id from what the case is about: `a welcome note` → `welcome-note`, `A set of resources to
 * help me write all kinds of internal communications` → `write-internal-communications`. At most
 * three words that say something, lower case, letters and digits; what is in parentheses is left out.
 */
function slugOf(text: string): string {
  const words = text
    .replace(/\([^()]*\)/g, ' ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '' && !fillerWords.has(word));
  return words.slice(0, 3).join('-');
}

/** `out/report.json` → `out-report-json`, `Internal Comms` → `internal-comms`. */
function kebabOf(file: string): string {
  return file
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A case the description names no request for: the skill's name and the case's number, `internal-comms-2`. */
function fallbackId(skillName: string, at: number): string {
  return `${kebabOf(skillName) || 'case'}-${at + 1}`;
}

function uniqueId(slug: string | undefined, fallback: string, taken: Set<string>): string {
  const base = slug && slug.length >= 2 && !controlWords.test(slug) ? slug : fallback;
  let id = base;
  for (let suffix = 2; taken.has(id); suffix += 1) id = `${base}-${suffix}`;
  taken.add(id);
  return id;
}
