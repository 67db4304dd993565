import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assertionsOfCase, caseTurns } from './case-turns.js';
import { formatIssue } from './issues.js';
import { loadEvalsFile } from './load-evals-file.js';

const fileName = 'skill/evals/evals.json';

function load(cases: unknown[]) {
  const source = JSON.stringify({ skill_name: 'demo', evals: cases }, null, 2);
  const result = loadEvalsFile({ source, fileName });
  return {
    ...result,
    errorLines: result.errors.map((issue) => formatIssue(fileName, issue)),
    warningLines: result.warnings.map((issue) => formatIssue(fileName, issue)),
  };
}

/** Each case's turns as [prompt, assertion texts]. */
function turnsOf(result: ReturnType<typeof load>) {
  return result.evals?.cases.map((evalCase) =>
    caseTurns(evalCase).map((turn) => [turn.prompt, turn.assertions.map((assertion) => assertion.text)]),
  );
}

describe('multi-turn cases: every shape read into one model', () => {
  it('reads a single prompt as one turn with no assertions of its own', () => {
    const result = load([{ id: 1, prompt: 'Greet Ada.', assertions: ['It greets Ada'] }]);
    expect(result.errorLines).toEqual([]);
    expect(turnsOf(result)).toEqual([[['Greet Ada.', []]]]);
    expect(result.evals?.cases[0]?.prompt).toBe('Greet Ada.');
    expect(result.evals?.cases[0]?.assertions.map((assertion) => assertion.text)).toEqual(['It greets Ada']);
  });

  it('reads a `prompt` array as one turn per entry, the case assertions kept for the end state', () => {
    const result = load([
      { id: 'chat', prompt: ['Draft a haiku.', 'Make it about autumn.', 'Add a title.'], assertions: ['Has a title'] },
    ]);
    expect(result.errorLines).toEqual([]);
    expect(result.warningLines).toEqual([]);
    expect(turnsOf(result)).toEqual([
      [
        ['Draft a haiku.', []],
        ['Make it about autumn.', []],
        ['Add a title.', []],
      ],
    ]);
    const [evalCase] = result.evals?.cases ?? [];
    expect(evalCase?.prompt).toBe('Draft a haiku.');
    expect(evalCase?.assertions.map((assertion) => assertion.text)).toEqual(['Has a title']);
  });

  it('reads `turns` with assertions of their own (both list names), strings as prompt-only turns', () => {
    const result = load([
      {
        id: 'refine',
        turns: [
          { prompt: 'Write greeting.txt for Ada.', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] },
          'Now make it shout.',
          { prompt: 'Say what you changed.', expectations: ['It says the greeting is now upper case'] },
        ],
        assertions: ['The final greeting is upper case'],
      },
    ]);
    expect(result.errorLines).toEqual([]);
    expect(result.warningLines).toEqual([]);
    expect(turnsOf(result)).toEqual([
      [
        ['Write greeting.txt for Ada.', ['file-exists path=greeting.txt']],
        ['Now make it shout.', []],
        ['Say what you changed.', ['It says the greeting is now upper case']],
      ],
    ]);
    const [evalCase] = result.evals?.cases ?? [];
    expect(evalCase?.turns?.[2]?.assertions[0]?.list).toBe('expectations');
    // Graded in order: each turn's, then the case's own.
    expect(evalCase && assertionsOfCase(evalCase).map((assertion) => assertion.text)).toEqual([
      'file-exists path=greeting.txt',
      'It says the greeting is now upper case',
      'The final greeting is upper case',
    ]);
  });

  it('reads `prompt_sequence` (strings, user messages, text parts) as the turns, with a located warning', () => {
    const result = load([
      {
        id: 1,
        prompt_sequence: [
          'Plan the refactor.',
          { role: 'user', content: 'Do step one.' },
          { role: 'user', content: [{ type: 'text', text: 'Now step two.' }] },
          { prompt: 'Summarise.', assertions: ['It summarises both steps'] },
        ],
      },
    ]);
    expect(result.errorLines).toEqual([]);
    expect(result.warningLines).toEqual([
      `${fileName}:6:7: warning: evals[0].prompt_sequence: \`prompt_sequence\` read as the case's turns (Skeval's name is \`turns\`): each entry is what the user says next in the same agent session`,
    ]);
    expect(turnsOf(result)).toEqual([
      [
        ['Plan the refactor.', []],
        ['Do step one.', []],
        ['Now step two.', []],
        ['Summarise.', ['It summarises both steps']],
      ],
    ]);
  });

  it('loads a twelve-case file written with `prompt_sequence` (three turns each)', () => {
    const source = readFileSync(new URL('./__fixtures__/prompt-sequence.evals.json', import.meta.url));
    const result = loadEvalsFile({ source, fileName });
    expect(result.errors).toEqual([]);
    expect(result.evals?.cases).toHaveLength(12);
    expect(result.evals?.cases.map((evalCase) => caseTurns(evalCase).length)).toEqual(Array(12).fill(3));
    expect(result.warnings.every((issue) => issue.code === 'read-as')).toBe(true);
    expect(result.warnings).toHaveLength(12);
  });
});

describe('multi-turn cases: bad shapes are located errors with the fix', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'an empty prompt array',
      { prompt: [] },
      [
        `${fileName}:6:17: error: evals[0].prompt: \`prompt\` is an empty array; give one prompt per turn, or the task as a string`,
      ],
    ],
    [
      'a prompt array holding an object',
      { prompt: ['First.', { text: 'Second.' }] },
      [
        `${fileName}:8:9: error: evals[0].prompt[1]: each entry of a \`prompt\` array is one turn's prompt, a string, got an object; for turns with assertions of their own write "turns": [{ "prompt": "…", "assertions": […] }]`,
      ],
    ],
    [
      'an empty turn prompt',
      { prompt: ['First.', '  '] },
      [`${fileName}:8:9: error: evals[0].prompt[1]: turn 2's prompt is empty; write what the user says`],
    ],
    [
      'a prompt of the wrong type',
      { prompt: 42 },
      [
        `${fileName}:6:17: error: evals[0].prompt: \`prompt\` must be a string (or an array of strings, one per turn), got an integer`,
      ],
    ],
    [
      'turns that are not an array',
      { turns: { prompt: 'x' } },
      [`${fileName}:6:16: error: evals[0].turns: \`turns\` must be a non-empty array of turns, got an object`],
    ],
    [
      'an empty turns array',
      { turns: [] },
      [`${fileName}:6:16: error: evals[0].turns: \`turns\` must be a non-empty array of turns, got an empty array`],
    ],
    [
      'a turn without a prompt, naming the alias it has',
      { turns: [{ prompt: 'First.' }, { content: 'Second.' }] },
      [
        `${fileName}:10:9: error: evals[0].turns[1]: turn 2 has no \`prompt\`; it has \`content\`: rename it to \`prompt\``,
      ],
    ],
    [
      'a turn of the wrong type',
      { turns: ['First.', 7] },
      [
        `${fileName}:8:9: error: evals[0].turns[1]: a turn is a string or an object { "prompt": "…", "assertions"?: […] }, got an integer`,
      ],
    ],
    [
      'a bad assertion inside a turn, located in the turn',
      { turns: [{ prompt: 'First.', assertions: [{ type: 'regex-match', target: 'assistant-text' }] }] },
      [`${fileName}:10:13: error: evals[0].turns[0].assertions[0].pattern: \`pattern\` is required (a string)`],
    ],
    [
      'a scripted assistant message in prompt_sequence',
      { prompt_sequence: ['Hi.', { role: 'assistant', content: 'Hello!' }] },
      [
        `${fileName}:9:19: error: evals[0].prompt_sequence[1].role: turn 2 has \`"role": "assistant"\`; only the user's side of a conversation is given (every reply comes from the agent): remove it, or put what it asserts in the turn's \`assertions\``,
      ],
    ],
    [
      'the prompt given twice',
      { prompt: 'Once.', turns: ['Twice.'] },
      [
        `${fileName}:7:7: error: evals[0].turns: the case gives its prompt twice, in \`prompt\` and in \`turns\`; keep one: a multi-turn case is "turns": [{ "prompt": "…" }, { "prompt": "…", "assertions": […] }]`,
      ],
    ],
  ])('%s', (_label, fields, expected) => {
    const result = load([{ id: 1, ...fields }]);
    expect(result.errorLines).toEqual(expected);
    expect(result.evals).toBeUndefined();
  });

  it('warns about an unknown key of a turn and keeps the turn', () => {
    const result = load([{ id: 1, turns: [{ prompt: 'First.', rubric: 'be kind' }, 'Second.'] }]);
    expect(result.errorLines).toEqual([]);
    expect(result.warningLines).toEqual([
      `${fileName}:9:11: warning: evals[0].turns[0].rubric: unknown turn key \`rubric\` is not used`,
    ]);
    expect(turnsOf(result)).toEqual([
      [
        ['First.', []],
        ['Second.', []],
      ],
    ]);
  });
});
