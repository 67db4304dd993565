import { buildBrief } from '@skeval/evals';
import { renderBrief } from '@skeval/evals/internal';
import type { Command } from 'commander';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { addOptions, collect, type OptionTable, type OptionValues } from '../options.js';

/** `skeval brief`'s options. */
const briefOptions = {
  case: { flags: '--case <id>', description: 'only this case (repeatable)', parse: collect, default: [] },
  json: { flags: '--json', description: 'print the briefs as JSON' },
} as const satisfies OptionTable;

type BriefFlags = OptionValues<typeof briefOptions>;

/** `skeval brief`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineBrief(command: Command, { io }: CommandContext): void {
  command.argument('<skill-or-evals-file>', 'a skill folder, a tree of skills, or an evals.json');
  addOptions(command, briefOptions).action(async (path: string, flags: BriefFlags) => {
    const briefs = await buildBrief({ path, cwd: io.cwd, ...(flags.case.length ? { cases: flags.case } : {}) });
    io.stdout(flags.json ? jsonOutput({ briefs }) : renderBrief(briefs));
  });
}
