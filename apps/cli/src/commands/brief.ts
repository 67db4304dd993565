import '../parse-once.js';
import type { Command } from 'commander';
import type { CommandContext } from '../main.js';
import { addOptions, collect, type OptionTable, type OptionValues } from '../options.js';

/** `skeval brief`'s options. */
const briefOptions = {
  case: { flags: '--case <id>', description: 'only this case (repeatable)', parse: collect, default: [] },
  json: { flags: '--json', description: 'print the briefs as JSON' },
} as const satisfies OptionTable;

type BriefFlags = OptionValues<typeof briefOptions>;

/**
 * `skeval brief`'s arguments, options and action; its name and description are in
 * command-table.ts. The action loads what builds the briefs when it runs (`brief-run.ts`), so
 * every schema is built after zod's one-shot setting above (decision 0074).
 */
export function defineBrief(command: Command, { io }: CommandContext): void {
  command.argument('<skill-or-evals-file>', 'a skill folder, a tree of skills, or an evals.json');
  addOptions(command, briefOptions).action(async (path: string, flags: BriefFlags) => {
    const { runBrief } = await import('./brief-run.js');
    await runBrief({ path, cases: flags.case, json: flags.json ?? false, io });
  });
}
