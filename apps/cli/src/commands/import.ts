import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describeImport, importForeignFile, loadEvalsFile, skillDirOf } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';
import type { Command } from 'commander';
import type { CommandContext } from '../main.js';
import { addOptions, type OptionTable, type OptionValues } from '../options.js';

/** `skeval import`'s options. */
const importOptions = {
  output: { flags: '-o, --output <file>', description: 'write the evals.json here instead of printing it' },
  force: { flags: '--force', description: 'replace the output file when it exists' },
} as const satisfies OptionTable;

type ImportFlags = OptionValues<typeof importOptions>;

/** `skeval import`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineImport(command: Command, { io }: CommandContext): void {
  command
    .argument(
      '<file>',
      "another tool's eval file: a promptfoo config, an agentv, Vally or waza eval file, or a cases.yaml list (YAML)",
    )
    .addHelpText(
      'after',
      '\nEvery mapping and everything not imported is listed on stderr. Exit codes: 0 written, 2 the file cannot be read as any of them.',
    );
  addOptions(command, importOptions).action(async (path: string, flags: ImportFlags) => {
    const absolutePath = resolve(io.cwd, path);
    if (!existsSync(absolutePath)) throw new SkevalError({ code: 'usage', message: `${path}: no such file` });
    const output = flags.output === undefined ? undefined : resolve(io.cwd, flags.output);
    if (output === absolutePath)
      throw new SkevalError({
        code: 'usage',
        message: `-o ${flags.output} is the file being imported; write the evals.json somewhere else`,
      });
    if (output && existsSync(output) && !flags.force)
      throw new SkevalError({
        code: 'usage',
        message: `${flags.output} exists; give --force to replace it, or another -o`,
      });
    const skillDir = output ? skillDirOf(output) : undefined;
    let imported: Awaited<ReturnType<typeof importForeignFile>>;
    try {
      imported = await importForeignFile({ absolutePath, ...(skillDir ? { skillDir } : {}) });
    } catch (error) {
      throw new SkevalError({
        code: 'usage',
        message: `${path}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    for (const line of describeImport(imported)) io.stderr(`${line}\n`);
    const text = `${JSON.stringify(imported.evals, null, 2)}\n`;
    // What is written must load: say so now rather than at `skeval run`.
    const check = loadEvalsFile({ source: text, fileName: flags.output ?? 'evals.json' });
    for (const issue of check.errors) io.stderr(`error: ${issue.pointer}: ${issue.message}\n`);
    if (output === undefined) io.stdout(text);
    else {
      const { writeJsonAtomic } = await import('@skeval/core');
      await writeJsonAtomic(output, imported.evals);
      const count = imported.evals.evals.length;
      io.stderr(`wrote ${relative(io.cwd, output) || output} (${count} case${count === 1 ? '' : 's'})\n`);
    }
  });
}
