import { explainUnsafeSkillName } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';

/**
 * Refuses an option that becomes a folder of the run (`--iteration`, a run id) unless it is one
 * safe folder name: `--iteration ../../x` would otherwise write outside the output folder.
 */
export function checkFolderNameOptions(options: { iteration?: string; runId?: string }): void {
  for (const [flag, value] of [
    ['--iteration', options.iteration],
    ['run id', options.runId],
  ] as const) {
    if (value === undefined) continue;
    const problem = explainUnsafeSkillName(value);
    if (problem)
      throw new SkevalError({
        code: 'invalid_input',
        message: `${flag} ${JSON.stringify(value)} ${problem}; it names a folder of the run, so give one folder name of letters, digits, \`.\`, \`_\` and \`-\``,
      });
  }
}
