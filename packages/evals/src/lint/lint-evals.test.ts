import { describe, expect, it } from 'vitest';
import { loadEvalsFile } from '../load/load-evals-file.js';
import { type LintRule, lintEvals } from './lint-evals.js';

const negativeControl = {
  id: 'unrelated',
  prompt: 'What is the capital of France?',
  metadata: { negative_control: true },
  assertions: ['The answer names Paris', 'The answer is one or two sentences long'],
};

/** Lints an evals file given as an object; the source is pretty-printed so locations are stable. */
function lint(file: Record<string, unknown>, options: { skillMarkdown?: string; skillName?: string } = {}) {
  const source = JSON.stringify(file, null, 2);
  const result = loadEvalsFile({ source, fileName: 'evals.json' });
  if (!result.evals || !result.locate) throw new Error(result.errors.map((error) => error.message).join('\n'));
  return lintEvals({ evals: result.evals, locate: result.locate, ...options });
}

function rules(
  file: Record<string, unknown>,
  options?: { skillMarkdown?: string; skillName?: string },
): Array<[LintRule, string]> {
  return lint(file, options).map((warning) => [warning.rule, warning.pointer]);
}

const suite = (...cases: unknown[]) => ({ skill_name: 'pdf-tools', evals: [...cases, negativeControl] });

describe('lintEvals', () => {
  it('finds nothing in a well-made suite', () => {
    expect(
      rules(
        suite({
          id: 1,
          prompt: 'Merge a.pdf and b.pdf into merged.pdf',
          expected_output: 'merged.pdf holds the pages of a.pdf, then b.pdf',
          files: ['evals/files/a.pdf', 'evals/files/b.pdf'],
          assertions: [
            { kind: 'workspace', method: 'file-exists', path: 'merged.pdf' },
            'The reply says the merged file has the pages of a.pdf before those of b.pdf',
          ],
        }),
      ),
    ).toEqual([]);
  });

  it('assertion-count: fewer than 2 or more than 5, located at the list (or the case when it has none)', () => {
    const warnings = lint(
      suite(
        { id: 1, prompt: 'p', assertions: ['The reply names Paris'] },
        {
          id: 2,
          prompt: 'q',
          expectations: ['A', 'B', 'C', 'D', 'E', 'F'].map((letter) => `The reply names ${letter}lice`),
        },
        { id: 3, prompt: 'r', must_have: ['x'] },
      ),
    );
    expect(
      warnings
        .filter((warning) => warning.rule === 'assertion-count')
        .map((warning) => [warning.pointer, warning.line, warning.column, warning.message]),
    ).toEqual([
      [
        'evals[0].assertions',
        7,
        7,
        'the case has 1 assertion; with 2 to 5 a failure says what went wrong (add a check of the outcome and one of the way there)',
      ],
      [
        'evals[1].expectations',
        14,
        7,
        'the case has 6 assertions; more than 5 dilute its pass rate: split it into cases, or keep the 5 that matter',
      ],
      [
        'evals[2]',
        23,
        5,
        'the case has no assertions, so nothing in it is graded; give it 2 to 5: its `must_have` is not read by Skeval; move the checks into `assertions`',
      ],
    ]);
  });

  it('scriptable-prose: file names, quoted tokens, JSON validity and check strings, each with the check to write instead', () => {
    const claims = [
      'Creates report.json in the workspace',
      'The output is valid JSON',
      "The commit subject starts with 'fix:'",
      'The reply does not mention `Co-Authored-By`',
      'contains:Paris',
      'merge_chunks.py was invoked producing merged.json',
      "Runs 'npm test -- --coverage' before replying",
      "Interactive components have 'use client' at the top of the file",
      // Not scriptable: a quote set against what is wanted, a placeholder shape, a file read not written, a lone word.
      "Names a concrete product concept (not 'an AI-powered platform for X')",
      'Fills the "for [audience] who [need]" formula',
      'Reads config.yaml before changing anything',
      "Uses 'start' for text alignment",
      'Added a --coverage flag in package.json',
      'Output treats BEAT_MAP.json as optional',
      "Reads the progress session for 'my-skill' from the configured state location",
      "Shows the last 10 entries or 'no entries yet'",
    ];
    const warnings = lint(suite({ id: 1, prompt: 'p', assertions: claims })).filter(
      (warning) => warning.rule === 'scriptable-prose',
    );
    expect(warnings.map((warning) => `${warning.pointer}: ${warning.message}`)).toEqual([
      'evals[0].assertions[0]: a script can check whether report.json exists: {"kind":"workspace","method":"file-exists","path":"report.json"} grades it without the judge; keep prose for what it cannot check',
      'evals[0].assertions[1]: a script can check whether the response is valid JSON: {"kind":"output","method":"json-valid"} grades it without the judge; keep prose for what it cannot check',
      'evals[0].assertions[2]: a script can check that the response contains "fix:": {"kind":"output","method":"contains","value":"fix:"} grades it without the judge; keep prose for what it cannot check',
      'evals[0].assertions[3]: a script can check that the response leaves out "Co-Authored-By": {"kind":"output","method":"not-contains","value":"Co-Authored-By"} grades it without the judge; keep prose for what it cannot check',
      'evals[0].assertions[4]: a script can check this `contains:` check, written as a string the judge would read as prose: {"kind":"output","method":"contains","value":"Paris"} grades it without the judge; keep prose for what it cannot check',
      'evals[0].assertions[5]: a script can check whether merged.json exists: {"kind":"workspace","method":"file-exists","path":"merged.json"} grades it without the judge; keep prose for what it cannot check',
      'evals[0].assertions[6]: a script can check that the agent ran `npm test -- --coverage`: {"kind":"behavior","method":"command-ran","pattern":"npm test -- --coverage"} grades it without the judge; keep prose for what it cannot check',
      'evals[0].assertions[7]: a script can check that the file contains "use client": {"kind":"workspace","method":"file-contains","path":"<the file>","value":"use client"} grades it without the judge; keep prose for what it cannot check',
    ]);
  });

  it('vague-prose: a pronoun for an object, a bare judgement, two words; not a claim that names something', () => {
    const claims = [
      'Should explain it',
      'The response is helpful and clear',
      'Good answer',
      // Concrete enough: a proper noun, a number, code, an enumeration, a specific statement in plain words.
      'Explains why Postgres needs a VACUUM after the bulk delete',
      'Lists 3 risks',
      'Suggests `git rebase -i` to squash',
      'Covers the three cases (empty, one item, many)',
      'Explains that spot VMs can be preempted at any time during the upgrade drain',
      'Each proposed commit message is written in the imperative mood and under the subject length limit',
      'Overall quality score or assessment',
      'Observations remain associated with the correct source image.',
    ];
    const warnings = lint(suite({ id: 1, prompt: 'p', assertions: claims })).filter(
      (warning) => warning.rule === 'vague-prose',
    );
    expect(warnings.map((warning) => [warning.pointer, warning.message])).toEqual([
      [
        'evals[0].assertions[0]',
        'vague claim: "explain it" does not say what; name what the response must contain or do (a file, a value, a step, a name)',
      ],
      [
        'evals[0].assertions[1]',
        'vague claim: "helpful" is a judgement with nothing named to judge it by; name what the response must contain or do (a file, a value, a step, a name)',
      ],
      [
        'evals[0].assertions[2]',
        'vague claim: "Good" is a judgement with nothing named to judge it by; name what the response must contain or do (a file, a value, a step, a name)',
      ],
    ]);
  });

  it('prompt-names-skill: an identifier-like name anywhere, a plain word only as a skill or a command; never a path segment', () => {
    const cases = (prompts: string[]) =>
      prompts.map((prompt, index) => ({
        id: index + 1,
        prompt,
        assertions: ['The reply names Paris', 'The reply names France'],
      }));
    expect(
      rules(
        suite(
          ...cases([
            'Use pdf-tools to merge these',
            '/pdf-tools merge',
            'Merge a.pdf and b.pdf',
            'Read ~/.config/pdf-tools/settings first',
          ]),
        ),
      ),
    ).toEqual([
      ['prompt-names-skill', 'evals[0].prompt'],
      ['prompt-names-skill', 'evals[1].prompt'],
    ]);
    const greeting = {
      skill_name: 'greeting',
      evals: [
        ...cases(['Write a greeting for Ada', 'Use the greeting skill for Ada', '/greeting Ada']),
        negativeControl,
      ],
    };
    expect(rules(greeting).map(([, pointer]) => pointer)).toEqual(['evals[1].prompt', 'evals[2].prompt']);
  });

  it('no-negative-control: a suite with no case marked, named or written as one where the skill should not matter', () => {
    const positive = {
      id: 1,
      prompt: 'Merge a.pdf and b.pdf',
      assertions: ['The reply names a.pdf and b.pdf', 'The reply says in which order the files were merged'],
    };
    const warnings = lint({ skill_name: 'pdf-tools', evals: [positive] });
    expect(warnings.map((warning) => [warning.rule, warning.pointer, warning.line, warning.column])).toEqual([
      ['no-negative-control', 'evals', 3, 3],
    ]);
    for (const control of [
      { id: 'negative-unrelated', prompt: 'What time is it in Tokyo?' },
      { id: 2, prompt: 'What time is it in Tokyo?', should_trigger: false },
      { id: 2, prompt: 'What time is it in Tokyo?', metadata: { type: 'activation_negative' } },
      { id: 2, prompt: 'What time is it in Tokyo?', description: 'The skill should not trigger on a clock question' },
    ]) {
      expect({
        control,
        found: rules({ skill_name: 'pdf-tools', evals: [positive, { ...control, assertions: positive.assertions }] }),
      }).toEqual({ control, found: [] });
    }
  });

  it('unused-expected-output: only built-in checks, which never read it', () => {
    const checks = [
      { kind: 'workspace', method: 'file-exists', path: 'merged.pdf' },
      { kind: 'output', method: 'contains', value: 'merged.pdf' },
    ];
    const warnings = lint(
      suite({ id: 1, prompt: 'Merge a.pdf and b.pdf', expected_output: 'merged.pdf with 4 pages', assertions: checks }),
    );
    expect(warnings.map((warning) => [warning.rule, warning.pointer, warning.line, warning.column])).toEqual([
      ['unused-expected-output', 'evals[0].expected_output', 7, 7],
    ]);
    expect(
      rules(
        suite({
          id: 1,
          prompt: 'Merge a.pdf and b.pdf',
          expected_output: 'merged.pdf with 4 pages',
          assertions: [...checks, 'The reply matches the expected output'],
        }),
      ),
    ).toEqual([]);
  });

  it('copied-from-skill: an assertion that is a sentence of SKILL.md, whatever its case, marks and spacing', () => {
    const skillMarkdown =
      '---\nname: pdf-tools\n---\n# PDF tools\n\nAlways **check the page count** of the merged file before replying.\nKeep it short.\n';
    const warnings = lint(
      suite({
        id: 1,
        prompt: 'Merge a.pdf and b.pdf',
        assertions: [
          'Always check the page count of the merged file before replying',
          'Keep it short',
          'The reply gives the page count of merged.pdf as 4',
        ],
      }),
      { skillMarkdown },
    );
    expect(warnings.map((warning) => [warning.rule, warning.pointer])).toEqual([
      ['copied-from-skill', 'evals[0].assertions[0]'],
    ]);
  });
});
