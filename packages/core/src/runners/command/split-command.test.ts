import { describe, expect, it } from 'vitest';
import { splitCommand } from './runner.js';

describe('the agent command', () => {
  it('is split as a shell splits words: quotes and escapes are honoured', () => {
    expect(splitCommand(`node a.mjs 'a b' "c d" e\\ f {prompt_file}`)).toEqual([
      'node',
      'a.mjs',
      'a b',
      'c d',
      'e f',
      '{prompt_file}',
    ]);
  });

  it('keeps $VARIABLES as written (there is no shell to expand them)', () => {
    expect(splitCommand('node a.mjs $HOME')).toEqual(['node', 'a.mjs', '$HOME']);
  });

  it.each(['node a.mjs | tee log', 'node a.mjs > out.txt', 'node a.mjs && echo done', 'node *.mjs'])(
    'refuses %s, which needs a shell, with a hint',
    (command) => {
      expect(() => splitCommand(command)).toThrow(
        /needs a shell, and the command runs without one; put it in a script/,
      );
    },
  );
});
