import { Writable } from 'node:stream';
import type { InitTarget } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';
import type { CliIo } from '../io.js';

/** What the author answered: how many cases the skill is for, and their prompts (empty: a TODO). */
export interface InitAnswers {
  cases: number;
  prompts: string[];
}

/** The most cases `skeval init` writes: a starter set, not a suite. */
export const maxInitCases = 10;

/**
 * Asks on the terminal (stdin and stderr) how many cases the skill is for, unless `cases` is
 * given, and each case's prompt. The prompt library loads only here, so no other command pays
 * for it. Ctrl-C ends with nothing written.
 */
export async function askInitQuestions(target: InitTarget, cases: number | undefined, io: CliIo): Promise<InitAnswers> {
  const prompts = await import('@clack/prompts');
  const output = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        io.stderr(String(chunk));
        done();
      },
    }),
    { columns: io.stderrColumns ?? 80, isTTY: true },
  );
  const common = { ...(io.stdin ? { input: io.stdin } : {}), output };
  const answered = (value: string | symbol): string => {
    if (typeof value === 'symbol') {
      prompts.cancel('nothing written', common);
      throw new SkevalError({ code: 'interrupted', message: 'init cancelled; nothing written' });
    }
    return value;
  };
  prompts.intro(`skeval init: starter evals for ${target.skillName}`, common);
  const count =
    cases ??
    Number(
      answered(
        await prompts.text({
          ...common,
          message: 'How many cases is the skill for? (a negative control is added)',
          placeholder: '2',
          defaultValue: '2',
          validate: (value) => {
            const number = Number(value === undefined || value === '' ? '2' : value);
            return Number.isInteger(number) && number >= 1 && number <= maxInitCases
              ? undefined
              : `a whole number from 1 to ${maxInitCases}`;
          },
        }),
      ) || '2',
    );
  const given: string[] = [];
  for (let at = 0; at < count; at += 1) {
    const situation = target.hints.situations[at];
    given.push(
      answered(
        await prompts.text({
          ...common,
          message: `Case ${at + 1}: what would a user ask?${situation ? ` (about: ${situation})` : ''}`,
          placeholder: 'Enter leaves a TODO to edit in the file',
          defaultValue: '',
        }),
      ).trim(),
    );
  }
  prompts.outro('writing evals/evals.json', common);
  return { cases: count, prompts: given };
}
