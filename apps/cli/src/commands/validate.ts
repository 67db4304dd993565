// The package's validate entry: through its main or internal entry the lint rules and the
// importers, loaded when first used, would join this command's own chunk (decision 0074).
import {
  collapseIssues,
  describeMultiTurn,
  describeTriggerCounts,
  formatCollapsedIssue,
  formatIssue,
  multiTurnCases,
  type ValidateEvalsResult,
  validateEvals,
} from '@skeval/evals/validate';
import type { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { addOptions, type OptionTable, type OptionValues } from '../options.js';

/** `skeval validate`'s options. */
const validateOptions = {
  json: { flags: '--json', description: 'print the result as JSON' },
  quiet: {
    flags: '-q, --quiet',
    description: 'print errors only: no warnings, no summary (the exit code says the rest)',
  },
  lint: { flags: '--lint', description: 'also warn about what makes a valid eval set weak (see docs/lint.md)' },
  verbose: { flags: '--verbose', description: 'print every warning, not one line per repeated warning' },
} as const satisfies OptionTable;

type ValidateFlags = OptionValues<typeof validateOptions>;

/** `skeval validate`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineValidate(command: Command, { io, setExitCode }: CommandContext): void {
  command
    .argument('[paths...]', 'evals.json files, or folders searched for evals/evals.json (then *.json)', [])
    .addHelpText(
      'after',
      '\nExit codes: 0 every file is valid (lint warnings included), 2 a file is invalid, a path is missing, or (--lint) a prompt is still a TODO placeholder.',
    );
  addOptions(command, validateOptions).action(async (paths: string[], flags: ValidateFlags) => {
    const result = await validateEvals({ paths, cwd: io.cwd, lint: flags.lint ?? false });
    io.stdout(
      flags.json ? jsonOutput(toJson(result)) : renderText(result, flags.quiet ?? false, flags.verbose ?? false),
    );
    const lintErrors = result.summary.lint?.errors ?? 0;
    setExitCode(result.summary.invalid === 0 && lintErrors === 0 ? exitCodes.ok : exitCodes.usage);
  });
}

function renderText(result: ValidateEvalsResult, quiet: boolean, verbose: boolean): string {
  const lines: string[] = [];
  for (const file of result.files) {
    const lint = (file.lint ?? []).map((warning) => ({
      ...warning,
      message: `${warning.message} [lint/${warning.rule}]`,
    }));
    // A lint error (a placeholder prompt) is listed with the errors: --quiet keeps it, nothing collapses it.
    const errors = [...file.errors, ...lint.filter((issue) => issue.severity === 'error')].map((issue) => ({
      ...issue,
      text: formatIssue(file.fileName, issue),
    }));
    const lintWarnings = lint.filter((issue) => issue.severity === 'warning');
    // A warning repeated across a file is one line with a count and its first places, unless --verbose.
    const warnings = quiet
      ? []
      : verbose
        ? [...file.warnings, ...lintWarnings].map((issue) => ({ ...issue, text: formatIssue(file.fileName, issue) }))
        : collapseIssues([...file.warnings, ...lintWarnings]).map((group) => ({
            ...group,
            text: formatCollapsedIssue(file.fileName, group),
          }));
    const issues = [...errors, ...warnings].sort((a, b) => a.line - b.line || a.column - b.column);
    for (const issue of issues) lines.push(issue.text);
    if (file.triggers && !quiet) lines.push(`${file.fileName}: ${describeTriggerCounts(file.triggers)}`);
    const multiTurn = file.evals && !quiet ? describeMultiTurn(file.evals.cases) : undefined;
    if (multiTurn) lines.push(`${file.fileName}: ${multiTurn}`);
  }
  // Quiet means errors only: the exit code says the rest.
  if (quiet) return lines.length ? `${lines.join('\n')}\n` : '';
  const { files, valid, invalid, warnings, lint } = result.summary;
  const noun = files === 1 ? 'file' : 'files';
  lines.push(`${files} ${noun}: ${valid} valid, ${invalid} invalid, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  if (lint) {
    const counts = Object.entries(lint.byRule).map(([rule, count]) => `${rule} ${count}`);
    const errors = lint.errors ? `${lint.errors} error${lint.errors === 1 ? '' : 's'}, ` : '';
    lines.push(
      `lint: ${errors}${lint.warnings} warning${lint.warnings === 1 ? '' : 's'}${counts.length ? ` (${counts.join(', ')})` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function toJson(result: ValidateEvalsResult) {
  return {
    files: result.files.map((file) => ({
      file: file.fileName,
      valid: file.valid,
      cases: file.evals?.cases.length ?? null,
      ...(file.evals && multiTurnCases(file.evals.cases).length
        ? { multi_turn: multiTurnCases(file.evals.cases) }
        : {}),
      ...(file.triggers
        ? {
            triggers: {
              total: file.triggers.total,
              should_trigger: file.triggers.shouldTrigger,
              should_not_trigger: file.triggers.shouldNotTrigger,
              shapes: file.triggers.shapes,
            },
          }
        : {}),
      errors: file.errors,
      warnings: file.warnings,
      ...(file.lint ? { lint: file.lint } : {}),
    })),
    summary: result.summary,
  };
}
