import type { AgentStep, ScriptedTurn } from '@skeval/fake-provider';

/** The prompts of the three-turn case `refine`: write a greeting, make it shout, say what changed. */
export const threeTurnPrompts = [
  'TURN-ONE: Write greeting.txt for Ada.',
  'TURN-TWO: Now make it shout.',
  'TURN-THREE: Say what you changed.',
];

/** The model's answer to each turn, in order. */
export const threeTurnAnswers = [
  'Wrote greeting.txt for Ada: Hello, Ada!',
  'Made it shout: HELLO, ADA!',
  'I changed the greeting to upper case.',
];

/**
 * The model's side of the three turns, found by each prompt's marker: turns 1 and 2 write
 * greeting.txt with `write` (the agent's own tool) and answer, turn 3 only answers.
 */
export function threeTurnScript(
  write: (content: string) => AgentStep,
  usage: { input_tokens: number; output_tokens: number },
): ScriptedTurn[] {
  return [
    { marker: 'TURN-ONE', steps: [write('Hello, Ada!\n'), { text: threeTurnAnswers[0], usage }] },
    { marker: 'TURN-TWO', steps: [write('HELLO, ADA!\n'), { text: threeTurnAnswers[1], usage }] },
    { marker: 'TURN-THREE', steps: [{ text: threeTurnAnswers[2], usage }] },
  ];
}
