import type { NormalizedAssertion } from '@skeval/schema/internal';
import { formatPointer } from '@skeval/schema/internal';
import { resolveGrader } from '@skeval/scripts';
import { isPlaceholderPrompt } from '../init/starter-evals.js';
import type { LoadedCase, LoadedEvalsFile } from '../load/types.js';
import { scriptableCheck, vagueness } from './claim-text.js';
import { inputsTextOf, vacuousChecks } from './vacuous-checks.js';

/** The lint rules, each documented in docs/lint.md with a good and a bad example. */
export const lintRules = [
  'assertion-count',
  'scriptable-prose',
  'vague-prose',
  'prompt-names-skill',
  'no-negative-control',
  'unused-expected-output',
  'copied-from-skill',
  'empty-match-pattern',
  'provided-file-exists',
  'negated-absent-value',
  'todo-prompt',
] as const;
export type LintRule = (typeof lintRules)[number];

/**
 * One weakness of an eval set, located like a validation issue. Every rule warns but
 * `todo-prompt`, an error: a placeholder prompt would be sent to the agent as the task.
 */
export interface LintWarning {
  severity: 'warning' | 'error';
  rule: LintRule;
  message: string;
  path: Array<string | number>;
  pointer: string;
  line: number;
  column: number;
}

export interface LintEvalsOptions {
  evals: LoadedEvalsFile;
  /** Where a JSON path sits in the source (from the load result). */
  locate: (path: ReadonlyArray<string | number>, options?: { key?: boolean }) => { line: number; column: number };
  /** The skill's name (default: the evals file's `skill_name`); without one the prompts are not checked for it. */
  skillName?: string;
  /** The text of SKILL.md, when the skill has one. */
  skillMarkdown?: string;
  /** The skill folder, from which custom graders are found. @default process.cwd() */
  skillDir?: string;
}

const minAssertions = 2;
const maxAssertions = 5;

/** What makes an eval set weak, as located warnings: it never changes whether a file is valid. */
export function lintEvals(options: LintEvalsOptions): LintWarning[] {
  const warnings: LintWarning[] = [];
  const warn = (rule: LintRule, path: Array<string | number>, message: string, key = false) => {
    warnings.push({
      severity: rule === 'todo-prompt' ? 'error' : 'warning',
      rule,
      message,
      path,
      pointer: formatPointer(path),
      ...options.locate(path, { key }),
    });
  };
  const skillName = options.skillName ?? options.evals.skillName;
  const skillDir = options.skillDir ?? process.cwd();
  const skillSentences = options.skillMarkdown === undefined ? undefined : normalize(options.skillMarkdown);
  for (const evalCase of options.evals.cases) {
    const casePath = ['evals', evalCase.index];
    checkAssertionCount(evalCase, casePath, warn);
    let inputs: string | undefined;
    const inputsText = () => (inputs ??= inputsTextOf(evalCase, skillDir));
    for (const assertion of evalCase.assertions) {
      const path = [...casePath, assertion.list, assertion.index];
      for (const check of vacuousChecks(assertion, evalCase, {
        skillDir,
        ...(options.skillMarkdown === undefined ? {} : { skillMarkdown: options.skillMarkdown }),
        inputsText,
      }))
        warn(check.rule, path, check.message);
      const claim = claimOf(assertion);
      if (claim === undefined) continue;
      const scriptable = scriptableCheck(claim);
      if (scriptable)
        warn(
          'scriptable-prose',
          path,
          `a script can check ${scriptable.reason}: ${JSON.stringify(scriptable.suggestion)} grades it without the judge; keep prose for what it cannot check`,
        );
      else {
        const vague = vagueness(claim);
        if (vague)
          warn(
            'vague-prose',
            path,
            `vague claim: ${vague}; name what the response must contain or do (a file, a value, a step, a name)`,
          );
      }
      if (skillSentences && claim.trim().split(/\s+/).length >= 5 && skillSentences.includes(normalize(claim))) {
        warn(
          'copied-from-skill',
          path,
          'this assertion is copied from SKILL.md: it restates the instructions instead of checking their outcome; say what a correct result looks like for this prompt',
        );
      }
    }
    checkPlaceholderPrompts(evalCase, casePath, warn);
    if (skillName) {
      const named = namesSkill(evalCase.prompt, skillName);
      if (named)
        warn(
          'prompt-names-skill',
          [...casePath, 'prompt'],
          `the prompt names the skill (${JSON.stringify(named)}): that brings the skill in by name, so the case cannot show whether an ordinary request would, and trigger rates look higher than they are; ask for the task in the user's words (keep one named case if explicit invocation matters)`,
        );
    }
    // A case with no assertions at all is reported once, by assertion-count.
    if (
      evalCase.expectedOutput !== undefined &&
      evalCase.assertions.length > 0 &&
      !evalCase.assertions.some((assertion) => readsExpectedOutput(assertion, skillDir))
    ) {
      warn(
        'unused-expected-output',
        [...casePath, 'expected_output'],
        '`expected_output` is never used: the assertions are all built-in checks, which do not read it (only prose claims, through the judge, and custom graders do); add a claim that holds the response to it, or drop it',
        true,
      );
    }
  }
  if (
    options.evals.cases.length > 0 &&
    !options.evals.cases.some(isNegativeControl) &&
    !hasTriggerNegatives(options.evals.extra)
  ) {
    warn(
      'no-negative-control',
      ['evals'],
      'no negative control: add a case where the skill should not change the outcome (an unrelated or out-of-scope prompt) and mark it `"metadata": { "negative_control": true }` (or `"should_trigger": false`), so a skill that fires everywhere shows up',
      true,
    );
  }
  return warnings;
}

type Warn = (rule: LintRule, path: Array<string | number>, message: string, key?: boolean) => void;

/** A prompt `skeval init` left as a `TODO` placeholder, in any turn: the agent would get the placeholder as its task. */
function checkPlaceholderPrompts(evalCase: LoadedCase, casePath: Array<string | number>, warn: Warn): void {
  const turns = evalCase.turns ?? [{ prompt: evalCase.prompt }];
  turns.forEach((turn, at) => {
    if (!isPlaceholderPrompt(turn.prompt)) return;
    const where = turns.length > 1 ? `turn ${at + 1}'s prompt` : 'the prompt';
    warn(
      'todo-prompt',
      [...casePath, 'prompt'],
      `${where} is still a placeholder (${JSON.stringify(truncated(turn.prompt))}): write the request a user would make; skeval run refuses this case until then (--allow-todo sends it as it is)`,
    );
  });
}

const truncated = (text: string) => (text.length > 40 ? `${text.slice(0, 39)}…` : text);

function checkAssertionCount(evalCase: LoadedCase, casePath: Array<string | number>, warn: Warn): void {
  const count = evalCase.assertions.length;
  if (count >= minAssertions && count <= maxAssertions) return;
  const list = evalCase.assertions[0]?.list;
  const path = list ? [...casePath, list] : casePath;
  const message =
    count === 0
      ? noAssertionsMessage(evalCase)
      : count < minAssertions
        ? `the case has 1 assertion; with ${minAssertions} to ${maxAssertions} a failure says what went wrong (add a check of the outcome and one of the way there)`
        : `the case has ${count} assertions; more than ${maxAssertions} dilute its pass rate: split it into cases, or keep the ${maxAssertions} that matter`;
  warn('assertion-count', path, message, Boolean(list));
}

/** Why a case has nothing to grade, and what to move where: criteria under other keys, a trigger case, an expected output. */
function noAssertionsMessage(evalCase: LoadedCase): string {
  const fields = { ...evalCase.extra, ...evalCase.metadata };
  const criteria = Object.keys(evalCase.extra).filter((key) =>
    /criteria|rubric|must|checks?$|expect(?!ed_output)|success/i.test(key),
  );
  const base = `the case has no assertions, so nothing in it is graded; give it ${minAssertions} to ${maxAssertions}`;
  if (criteria.length)
    return `${base}: its ${criteria.map((key) => `\`${key}\``).join(', ')} ${criteria.length === 1 ? 'is' : 'are'} not read by Skeval; move the checks into \`assertions\``;
  if (typeof fields.should_trigger === 'boolean')
    return `${base}: for a trigger case, { "kind": "behavior", "method": "skill-read" } checks that the skill was read (with \`should_trigger: false\`, grade that it was not with a claim)`;
  if (evalCase.expectedOutput !== undefined)
    return `${base}: turn \`expected_output\` into claims the judge can decide one by one`;
  return base;
}

/** The prose of an assertion the judge will read, or undefined for a check made as code. */
function claimOf(assertion: NormalizedAssertion): string | undefined {
  if (assertion.spec.mode === 'judge') return assertion.spec.claim;
  return undefined;
}

function readsExpectedOutput(assertion: NormalizedAssertion, skillDir: string): boolean {
  return (
    assertion.spec.mode === 'judge' || resolveGrader(assertion.spec.grader, { from: skillDir }).kind !== 'built-in'
  );
}

function namesSkill(prompt: string, skillName: string): string | undefined {
  const name = skillName.trim();
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // An identifier-like name (`pdf-tools`) is never said by chance; a plain word (`greeting`) is,
  // so it counts only as "the greeting skill", "/greeting", "$greeting" or "skill greeting".
  // A path segment (`~/.config/llm-wiki/vault`) is not the skill being named.
  const pattern = /[-_:]/.test(name)
    ? new RegExp(`(?<![\\w-]|\\S/)${escaped}(?![\\w-]|/)`, 'i')
    : new RegExp(
        `(?:(?<!\\S)[/$@]${escaped}(?![\\w-]|/)|\\b${escaped}\\s+skill\\b|\\bskill\\s+[\`"']?${escaped}\\b)`,
        'i',
      );
  return pattern.exec(prompt)?.[0];
}

const negativeName =
  /(?:^|[-_\s])(?:negative|no[-_\s]?trigger|should[-_\s]?not[-_\s]?trigger|off[-_\s]?topic|out[-_\s]?of[-_\s]?scope|control)(?:$|[-_\s])/i;
const negativeFlagKeys = [
  'should_trigger',
  'expect_trigger',
  'expected_trigger',
  'trigger',
  'should_activate',
  'triggers',
];

const notUsed = String.raw`(?:should not|shouldn't|must not|does not|doesn't|did not|is not|isn't|was not|wasn't|not|never)\s+(?:be\s+)?(?:trigger|activat|invok|load|us)\w*`;
/** "does not trigger the skill", "the skill should not be invoked". */
const negativeProse = new RegExp(
  String.raw`\b${notUsed}\b[^.\n]{0,40}\bskill\b|\bskill\b[^.\n]{0,30}\b${notUsed}`,
  'i',
);

/** A case marked, named or described as one where the skill should not change the outcome. */
function isNegativeControl(evalCase: LoadedCase): boolean {
  const fields = { ...evalCase.extra, ...evalCase.metadata };
  if (negativeFlagKeys.some((key) => fields[key] === false)) return true;
  if (fields.negative_control === true || fields.negative === true || fields.control === true) return true;
  const labels = [
    evalCase.rawId,
    evalCase.name,
    fields.type,
    fields.category,
    fields.kind,
    ...(Array.isArray(fields.tags) ? fields.tags : []),
  ];
  if (labels.some((label) => typeof label === 'string' && negativeName.test(label))) return true;
  const prose = [evalCase.description ?? '', ...evalCase.assertions.map((assertion) => claimOf(assertion) ?? '')].join(
    '\n',
  );
  return negativeProse.test(prose);
}

/** Files that keep their trigger negatives in a top-level list (`should_not_trigger`, `trigger_evals`). */
function hasTriggerNegatives(extra: Record<string, unknown>): boolean {
  return Object.keys(extra).some((key) => /should_not_trigger|negative|trigger_evals/i.test(key));
}

/** Lower case, markdown marks and punctuation gone, whitespace collapsed: for verbatim comparison. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*_>#]|\[|\]\([^)]*\)/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
