// Codex has no Read tool: it reads files through the shell. Its TUI still shows "Read <file>" because
// openai/codex (codex-rs/shell-command/src/parse_command.rs) summarises each shell command as Read, ListFiles,
// Search or Unknown. This module reproduces that classification for the common cases so that Skeval's
// `tool-called read` means the same thing for Codex as for agents with a real Read tool.

import type { CommandSummary } from './shell/command-summary.js';
import { fileReaders } from './shell/file-readers.js';
import { isFormattingHelper } from './shell/is-formatting-helper.js';
import { mayChangeFiles } from './shell/may-change-files.js';
import { positionalOperands } from './shell/positional-operands.js';
import { splitScript } from './shell/split-script.js';
import { summariseCommand } from './shell/summarise-command.js';

/** What a Codex shell command did, as Codex itself classifies it: read files, listed, searched, or something else. */
export type ShellAction =
  | { kind: 'read'; paths: string[] }
  | { kind: 'list'; paths: string[] }
  | { kind: 'search'; paths: string[]; query?: string }
  | { kind: 'shell' };

// Codex trusts only these exact spellings: a repository file that happens to be called `bash` must not be unwrapped.
const shellExecutables = new Set([
  'bash',
  '/bin/bash',
  '/usr/bin/bash',
  '/usr/local/bin/bash',
  '/opt/homebrew/bin/bash',
  'zsh',
  '/bin/zsh',
  '/usr/bin/zsh',
  '/usr/local/bin/zsh',
  '/opt/homebrew/bin/zsh',
  'sh',
  '/bin/sh',
  '/usr/bin/sh',
]);

/**
 * Classifies a Codex `command_execution` command (`/bin/bash -lc '<script>'`, `zsh -lc`, `sh -c`, or a bare script)
 * the way Codex's own summary parser does: a script made only of file reads is `read` with every path read,
 * only listings is `list`, only searches is `search`. Anything mixed, unrecognised, redirecting, using expansions
 * or substitutions, or writing files is `shell`. Paths are returned as written, prefixed by any preceding `cd`.
 * Never throws, and runs in time linear in the length of the command.
 */
export function classifyShellCommand(command: string): ShellAction {
  const commands = splitScript(unwrapShell(command));
  if (commands === undefined || commands.length === 0) return { kind: 'shell' };
  // Codex's summary would call `find . -delete` a listing; a grader must not mistake a write for a read.
  if (commands.some(mayChangeFiles)) return { kind: 'shell' };
  const summaries = summariseWithDirectory(commands.filter((words) => !isFormattingHelper(words)));
  return combine(dropNoise(summaries));
}

/**
 * Every file some command of a script prints, whatever else the script does: `cat` of any number
 * of files, `head`, `tail`, `sed -n`, `nl`, `less`, … with the directory of a preceding `cd` put
 * in front. Paths are as written (a glob stays a glob: the shell expands it). A command that may
 * change files reads nothing here, and a script Skeval cannot split (redirects, substitutions)
 * reads nothing either.
 */
export function shellReadPaths(command: string): string[] {
  const commands = splitScript(unwrapShell(command));
  if (commands === undefined) return [];
  const paths: string[] = [];
  let directory: string | undefined;
  for (const words of commands) {
    const [name = '', ...rest] = words;
    if (name === 'cd') {
      const target = cdTarget(rest);
      if (target !== undefined) directory = directory === undefined ? target : joinPath(directory, target);
      continue;
    }
    if (mayChangeFiles(words)) continue;
    const read = name === 'cat' ? positionalOperands(rest, []) : fileReaders.get(name)?.(rest);
    for (const path of read ?? []) paths.push(directory === undefined ? path : joinPath(directory, path));
  }
  return paths;
}

function unwrapShell(command: string): string {
  const parsed = splitScript(command);
  const words = parsed?.length === 1 ? parsed[0] : undefined;
  if (words?.length !== 3) return command;
  const [executable = '', flag, script = ''] = words;
  return shellExecutables.has(executable) && (flag === '-lc' || flag === '-c') ? script : command;
}

function summariseWithDirectory(commands: string[][]): CommandSummary[] {
  const summaries: CommandSummary[] = [];
  let directory: string | undefined;
  for (const words of commands) {
    const [name = '', ...rest] = words;
    if (name === 'cd') {
      const target = cdTarget(rest);
      if (target !== undefined) directory = directory === undefined ? target : joinPath(directory, target);
      continue;
    }
    const summary = summariseCommand(name, rest);
    if (directory === undefined || summary.kind === 'unknown') {
      summaries.push(summary);
    } else {
      const base = directory;
      summaries.push({ ...summary, paths: summary.paths.map((path) => joinPath(base, path)) });
    }
  }
  return summaries;
}

function cdTarget(rest: string[]): string | undefined {
  let target: string | undefined;
  for (const [index, word] of rest.entries()) {
    if (word === '--') return rest[index + 1];
    if (!word.startsWith('-')) target = word;
  }
  return target;
}

function joinPath(base: string, path: string): string {
  // `~` counts as absolute because the shell expands it before the command sees it.
  if (base === '' || /^([/~]|[A-Za-z]:\\|\\\\)/.test(path)) return path;
  return base.endsWith('/') ? `${base}${path}` : `${base}/${path}`;
}

/**
 * Codex drops a few no-op commands once a script has more than one: any `true`, any `nl` with only options
 * (its input comes from the pipe), and `echo`s before the first real command (banners such as `echo ---`).
 */
function dropNoise(summaries: CommandSummary[]): CommandSummary[] {
  if (summaries.length <= 1) return summaries;
  const kept: CommandSummary[] = [];
  for (const summary of summaries) {
    if (summary.kind === 'unknown') {
      const [name, ...rest] = summary.words;
      const isTrue = name === 'true' && rest.length === 0;
      const isBareNl = name === 'nl' && rest.every((word) => word.startsWith('-'));
      const isLeadingEcho = name === 'echo' && kept.length === 0;
      if (isTrue || isBareNl || isLeadingEcho) continue;
    }
    kept.push(summary);
  }
  return kept;
}

function combine(summaries: CommandSummary[]): ShellAction {
  const [first] = summaries;
  if (first === undefined || first.kind === 'unknown') return { kind: 'shell' };
  const paths: string[] = [];
  const queries = new Set<string>();
  for (const summary of summaries) {
    if (summary.kind === 'unknown' || summary.kind !== first.kind) return { kind: 'shell' };
    paths.push(...summary.paths);
    if (summary.kind === 'search' && summary.query !== undefined) queries.add(summary.query);
  }
  const uniquePaths = [...new Set(paths)];
  if (first.kind === 'read') return { kind: 'read', paths: uniquePaths };
  if (first.kind === 'list') return { kind: 'list', paths: uniquePaths };
  // A query is only meaningful when every search agrees on it.
  const [query] = queries;
  return queries.size === 1 && query !== undefined
    ? { kind: 'search', paths: uniquePaths, query }
    : { kind: 'search', paths: uniquePaths };
}
