import { dirname, relative } from 'node:path';
import { formatIssue, type InitEvalsResult, initEvals, inspectInitTarget } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';
import type { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { addOptions, invalid, type OptionTable, type OptionValues, positiveInteger } from '../options.js';
import { askInitQuestions, maxInitCases } from './init-questions.js';

/** `skeval init`'s options. */
const initOptions = {
  cases: {
    flags: '--cases <n>',
    description: `cases the skill is for, 1 to ${maxInitCases} (default 2); a negative control is added`,
    parse: (value: string): number => {
      const number = positiveInteger(value);
      if (number > maxInitCases) invalid(`expected at most ${maxInitCases} cases for a starter set, got ${value}`);
      return number;
    },
  },
  force: { flags: '--force', description: 'replace an existing evals/evals.json' },
  config: {
    flags: '--no-config',
    description: 'write no skeval.config.mjs (by default one is written, all commented out, when the skill has none)',
  },
  yes: { flags: '-y, --yes', description: 'ask nothing, take the defaults (as without a terminal)' },
  json: { flags: '--json', description: 'print what was written as JSON (asks nothing)' },
} as const satisfies OptionTable;

type InitFlags = OptionValues<typeof initOptions>;

/** `skeval init`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineInit(command: Command, context: CommandContext): void {
  command
    .argument('[skill-dir]', 'the skill folder (it holds SKILL.md)', '.')
    .addHelpText(
      'after',
      '\nOn a terminal it asks how many cases and their prompts; --yes (or no terminal) takes the defaults.\nExit codes: 0 written, 2 no SKILL.md or the file exists (--force replaces it), 130 cancelled.',
    );
  addOptions(command, initOptions).action((skillDir: string, flags: InitFlags) => init(skillDir, flags, context));
}

async function init(skillDir: string, flags: InitFlags, { io, setExitCode }: CommandContext): Promise<void> {
  const base = { skillDir, cwd: io.cwd, ...(flags.force ? { force: true } : {}) };
  const interactive = !flags.yes && !flags.json && io.stdinIsTTY === true && io.stderrIsTTY === true;
  let answers: { cases?: number; prompts?: string[] } = flags.cases === undefined ? {} : { cases: flags.cases };
  if (interactive) {
    // Refused before any question: no SKILL.md, or a file that is there already.
    const target = await inspectInitTarget(base);
    try {
      answers = await askInitQuestions(target, flags.cases, io);
    } catch (error) {
      if (!SkevalError.isInstance(error) || error.code !== 'interrupted') throw error;
      setExitCode(exitCodes.interrupted);
      return;
    }
  }
  const result = await initEvals({ ...base, ...answers });
  const config = flags.config === false ? undefined : await writeConfig(skillDir, io.cwd);
  const fileName = relative(io.cwd, result.evalsPath) || result.evalsPath;
  for (const warning of result.warnings) {
    const rule = 'rule' in warning ? ` [lint/${warning.rule}]` : '';
    io.stderr(`${formatIssue(fileName, warning)}${rule}\n`);
  }
  io.stdout(
    flags.json ? jsonOutput(toJson(result, fileName, config, io.cwd)) : renderText(result, fileName, io.cwd, config),
  );
  setExitCode(exitCodes.ok);
}

interface ConfigWritten {
  /** The config file, as the user would type it from the current folder. */
  file: string;
  written: boolean;
}

/** A starter skeval.config.mjs beside the skill's project, unless a config already applies to it. */
async function writeConfig(skillDir: string, cwd: string): Promise<ConfigWritten> {
  const { writeStarterConfig } = await import('@skeval/core/internal');
  const result = await writeStarterConfig(skillDir, cwd);
  return { file: relative(cwd, result.file) || result.file, written: result.written };
}

function renderText(result: InitEvalsResult, fileName: string, cwd: string, config: ConfigWritten | undefined): string {
  const skill = shellWord(relative(cwd, result.skillDir) || '.');
  const cases = result.evals.evals.length;
  const steps = [
    [`skeval validate --lint ${skill}`, 'check the file'],
    [`skeval run ${skill} --dry-run`, 'the agent runs and judge calls it would make'],
    [`skeval run ${skill}`, 'run it'],
  ] as const;
  const width = Math.max(...steps.map(([command]) => command.length));
  const lines = [
    `${result.exists ? 'replaced' : 'wrote'} ${fileName}: ${cases} cases for ${result.skillName} (${cases - 1} the skill is for, 1 negative control)`,
    ...(config?.written ? [`wrote ${config.file}: every setting commented out (docs/config.md)`] : []),
    ...(config && !config.written ? [`kept ${config.file}: the config file already in effect for the skill`] : []),
    ...(result.references.length
      ? [
          `wrote ${result.references.length} reference stub${result.references.length === 1 ? '' : 's'} in ${relative(cwd, dirname(dirname(result.references[0] ?? ''))) || '.'}/: the known-good answer of each case, for skeval check`,
        ]
      : []),
    '',
    'Next:',
    '  1. edit what is marked TODO: each prompt, and the checks of what a good result holds',
    ...steps.map(([command, what], at) => `  ${at + 2}. ${command.padEnd(width)}  ${what}`),
    `  ${steps.length + 2}. write each reference, then skeval check ${skill}: does each check tell a good answer from a bad one?`,
  ];
  return `${lines.join('\n')}\n`;
}

function toJson(result: InitEvalsResult, fileName: string, config: ConfigWritten | undefined, cwd: string) {
  return {
    evalsFile: fileName,
    configFile: config?.file ?? null,
    configWritten: config?.written ?? false,
    replaced: result.exists,
    skill: result.skillName,
    schema: result.schemaPath,
    derivedFromDescription: result.derived,
    cases: result.evals.evals.map((evalCase) => ({
      id: evalCase.id,
      prompt: evalCase.prompt,
      negativeControl: evalCase.metadata?.negative_control === true,
    })),
    warnings: result.warnings,
    references: result.references.map((path) => relative(cwd, path) || path),
  };
}

/** A path as one word of a shell command line. */
function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
