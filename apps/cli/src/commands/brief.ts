import { buildBrief, renderBrief } from '@skeval/evals';
import type { Command } from 'commander';
import type { CliIo } from '../io.js';

export function registerBrief(program: Command, io: CliIo): void {
  program
    .command('brief')
    .description('print what each case gives the agent and what will be checked: the grading brief')
    .argument('<skill-or-evals-file>', 'a skill folder, a tree of skills, or an evals.json')
    .option(
      '--case <id>',
      'only this case (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option('--json', 'print the briefs as JSON')
    .action(async (path: string, flags: { case: string[]; json?: boolean }) => {
      const briefs = await buildBrief({ path, cwd: io.cwd, ...(flags.case.length ? { cases: flags.case } : {}) });
      io.stdout(flags.json ? `${JSON.stringify(briefs, null, 2)}\n` : renderBrief(briefs));
    });
}
