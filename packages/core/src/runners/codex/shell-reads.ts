// Codex has no Read tool: it reads files through the shell. Its TUI still shows "Read <file>" because
// openai/codex (codex-rs/shell-command/src/parse_command.rs) summarises each shell command as Read, ListFiles,
// Search or Unknown. This module reproduces that classification for the common cases so that Skeval's
// `tool-called read` means the same thing for Codex as for agents with a real Read tool.

/** What a Codex shell command did, as Codex itself classifies it: read files, listed, searched, or something else. */
export type ShellAction =
  | { kind: 'read'; paths: string[] }
  | { kind: 'list'; paths: string[] }
  | { kind: 'search'; paths: string[]; query?: string }
  | { kind: 'shell' };

/** One command of a script after classification; `unknown` keeps its words so the noise rules can inspect them. */
type Summary = Exclude<ShellAction, { kind: 'shell' }> | { kind: 'unknown'; words: string[] };

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

// Pipeline stages that only reshape output; Codex ignores them so `rg --files | wc -l` is still a listing.
const alwaysFormatting = new Set(['wc', 'tr', 'cut', 'sort', 'uniq', 'tee', 'column', 'yes', 'printf']);

// Programs `xargs` may run without the pipeline becoming "something else": the ones this module understands.
const xargsHarmlessPrograms = new Set([
  'cat',
  'bat',
  'batcat',
  'less',
  'more',
  'head',
  'tail',
  'nl',
  'sed',
  'awk',
  'ls',
  'eza',
  'exa',
  'tree',
  'du',
  'rg',
  'rga',
  'ripgrep-all',
  'grep',
  'egrep',
  'fgrep',
  'ag',
  'ack',
  'pt',
  'fd',
  'find',
  'wc',
  'tr',
  'cut',
  'sort',
  'uniq',
  'column',
  'printf',
  'echo',
]);

const findActions = new Set([
  '-delete',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
]);

const sedRange = /^\d+(,\d+)?p$/;
const lineCount = /^\d+$/;
const lineOffset = /^\+?\d+$/;

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

function unwrapShell(command: string): string {
  const parsed = splitScript(command);
  const words = parsed?.length === 1 ? parsed[0] : undefined;
  if (words?.length !== 3) return command;
  const [executable = '', flag, script = ''] = words;
  return shellExecutables.has(executable) && (flag === '-lc' || flag === '-c') ? script : command;
}

/**
 * Splits a script into the words of each command, joined by `&&`, `||`, `;`, `|` or newlines. Returns undefined for
 * anything Codex refuses to summarise: redirects, `$` expansions, substitutions, subshells, background jobs,
 * comments, unbalanced quotes, or an operator with no command on one side.
 */
function splitScript(script: string): string[][] | undefined {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  // A quoted empty string is still a word, so emptiness of `word` cannot tell us whether one started.
  let wordStarted = false;
  // After `&&`, `||` or `|` a command must follow, possibly on the next line.
  let awaitingCommand = false;
  const finishWord = () => {
    if (!wordStarted) return;
    words.push(word);
    word = '';
    wordStarted = false;
  };
  const finishCommand = (): boolean => {
    finishWord();
    if (words.length === 0) return false;
    commands.push(words);
    words = [];
    return true;
  };

  let index = 0;
  while (index < script.length) {
    const character = script.charAt(index);
    const next = script.charAt(index + 1);
    if (character === ' ' || character === '\t' || character === '\r') {
      finishWord();
      index += 1;
    } else if (character === '\n') {
      finishWord();
      if (words.length > 0) {
        finishCommand();
        awaitingCommand = false;
      }
      index += 1;
    } else if (character === "'") {
      const closing = script.indexOf("'", index + 1);
      if (closing === -1) return undefined;
      word += script.slice(index + 1, closing);
      wordStarted = true;
      index = closing + 1;
    } else if (character === '"') {
      const quoted = readDoubleQuoted(script, index + 1);
      if (quoted === undefined) return undefined;
      word += quoted.text;
      wordStarted = true;
      index = quoted.end;
    } else if (character === '\\') {
      if (index + 1 >= script.length) return undefined;
      // A backslash-newline joins lines rather than producing a character.
      if (next !== '\n') {
        word += next;
        wordStarted = true;
      }
      index += 2;
    } else if (character === '&') {
      if (next !== '&' || !finishCommand()) return undefined;
      awaitingCommand = true;
      index += 2;
    } else if (character === '|') {
      if (next === '&' || !finishCommand()) return undefined;
      awaitingCommand = true;
      index += next === '|' ? 2 : 1;
    } else if (character === ';') {
      if (next === ';' || !finishCommand()) return undefined;
      awaitingCommand = false;
      index += 1;
    } else if ('$`()<>'.includes(character) || (character === '#' && !wordStarted)) {
      return undefined;
    } else {
      word += character;
      wordStarted = true;
      index += 1;
    }
  }
  finishWord();
  if (words.length > 0) commands.push(words);
  else if (awaitingCommand) return undefined;
  return commands;
}

/** Reads a double-quoted string starting after its opening quote; undefined if unterminated or expanding. */
function readDoubleQuoted(script: string, start: number): { text: string; end: number } | undefined {
  let text = '';
  let cursor = start;
  while (cursor < script.length) {
    const character = script.charAt(cursor);
    if (character === '"') return { text, end: cursor + 1 };
    if (character === '$' || character === '`') return undefined;
    if (character === '\\') {
      const escaped = script.charAt(cursor + 1);
      if (escaped === '"' || escaped === '\\' || escaped === '$' || escaped === '`') {
        text += escaped;
        cursor += 2;
        continue;
      }
      if (escaped === '\n') {
        cursor += 2;
        continue;
      }
    }
    text += character;
    cursor += 1;
  }
  return undefined;
}

// These checks go beyond Codex, whose parser only describes commands for display; here the answer feeds
// graders, so a stage that edits files or runs an arbitrary program through xargs makes the command a plain shell call.
function mayChangeFiles(words: string[]): boolean {
  const [name = '', ...rest] = words;
  switch (name) {
    case 'sed':
      return rest.some(isInPlaceFlag);
    case 'tee':
      return positionalOperands(rest, []).length > 0;
    case 'sort':
      return rest.some((word) => word === '--output' || word.startsWith('--output=') || /^-[a-zA-Z]*o/.test(word));
    case 'find':
      return rest.some((word) => findActions.has(word));
    case 'xargs': {
      const program = xargsProgram(rest);
      if (program === undefined) return false;
      const [programName = '', ...programRest] = program;
      if (!xargsHarmlessPrograms.has(programName)) return true;
      // Codex itself counts `xargs rg --replace` as mutating, so keep that even though rg only prints.
      return mayChangeFiles(program) || (programName === 'rg' && programRest.includes('--replace'));
    }
    default:
      return false;
  }
}

function isInPlaceFlag(word: string): boolean {
  return word === '--in-place' || word.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(word);
}

/** The command `xargs` runs, skipping xargs' own options (some of which take a value). */
function xargsProgram(rest: string[]): string[] | undefined {
  let index = 0;
  while (index < rest.length) {
    const word = rest[index] ?? '';
    if (word === '--') return index + 1 < rest.length ? rest.slice(index + 1) : undefined;
    if (!word.startsWith('-')) return rest.slice(index);
    index += ['-E', '-e', '-I', '-L', '-n', '-P', '-s'].includes(word) ? 2 : 1;
  }
  return undefined;
}

function isFormattingHelper(words: string[]): boolean {
  const [name = '', ...rest] = words;
  if (alwaysFormatting.has(name)) return true;
  switch (name) {
    // Only a read-only xargs gets here: mayChangeFiles has already rejected the rest.
    case 'xargs':
      return true;
    case 'awk':
      return awkDataFiles(rest).length === 0;
    case 'head':
      return isCountOnly(rest, lineCount);
    case 'tail':
      return isCountOnly(rest, lineOffset);
    case 'sed':
      return sedReadPaths(rest) === undefined;
    default:
      return false;
  }
}

/** `head`/`tail` with no file operand, e.g. `head`, `head -n40`, `tail -n +10`, `tail -c 100`. */
function isCountOnly(rest: string[], count: RegExp): boolean {
  const [first, second] = rest;
  if (first === undefined) return true;
  if (second === undefined) return first.startsWith('-');
  return rest.length === 2 && (first === '-n' || first === '-c') && count.test(second);
}

function summariseWithDirectory(commands: string[][]): Summary[] {
  const summaries: Summary[] = [];
  let directory: string | undefined;
  for (const words of commands) {
    const [name = '', ...rest] = words;
    if (name === 'cd') {
      const target = cdTarget(rest);
      if (target !== undefined) directory = directory === undefined ? target : joinPath(directory, target);
      continue;
    }
    const summary = summarise(name, rest);
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

function summarise(name: string, rest: string[]): Summary {
  const unknown: Summary = { kind: 'unknown', words: [name, ...rest] };
  const read = (paths: string[] | undefined): Summary =>
    paths === undefined || paths.length === 0 || paths.includes('') ? unknown : { kind: 'read', paths };
  const single = (operands: string[]) => (operands.length === 1 ? operands : undefined);
  switch (name) {
    case 'cat':
    case 'more':
      return read(single(positionalOperands(rest, [])));
    case 'bat':
    case 'batcat':
      return read(
        single(
          positionalOperands(rest, [
            '--theme',
            '--language',
            '--style',
            '--terminal-width',
            '--tabs',
            '--line-range',
            '--map-syntax',
          ]),
        ),
      );
    case 'less':
      return read(
        single(
          positionalOperands(rest, [
            '-p',
            '-P',
            '-x',
            '-y',
            '-z',
            '-j',
            '--pattern',
            '--prompt',
            '--tabs',
            '--shift',
            '--jump-target',
          ]),
        ),
      );
    case 'head':
      return read(headOrTailPaths(rest, lineCount));
    case 'tail':
      return read(headOrTailPaths(rest, lineOffset));
    case 'nl':
      return read(positionalOperands(rest, ['-s', '-w', '-v', '-i', '-b']));
    case 'sed':
      return read(sedReadPaths(rest));
    case 'awk':
      return read(awkDataFiles(rest));
    case 'ls':
      return list(
        positionalOperands(rest, [
          '-I',
          '-w',
          '--block-size',
          '--format',
          '--time-style',
          '--color',
          '--quoting-style',
        ]),
      );
    case 'eza':
    case 'exa':
      return list(positionalOperands(rest, ['-I', '--ignore-glob', '--color', '--sort', '--time-style', '--time']));
    case 'tree':
      return list(positionalOperands(rest, ['-L', '-P', '-I', '--charset', '--filelimit', '--sort']));
    case 'du':
      return list(positionalOperands(rest, ['-d', '--max-depth', '-B', '--block-size', '--exclude', '--time-style']));
    case 'rg':
    case 'rga':
    case 'ripgrep-all':
      return ripgrep(rest);
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return grepLike(rest);
    case 'ag':
    case 'ack':
    case 'pt': {
      const [query, ...paths] = positionalOperands(rest, [
        '-G',
        '-g',
        '--file-search-regex',
        '--ignore-dir',
        '--ignore-file',
        '--path-to-ignore',
      ]);
      return search(query, paths);
    }
    case 'git': {
      const [subcommand, ...subcommandRest] = rest;
      if (subcommand === 'grep') return grepLike(subcommandRest);
      if (subcommand === 'ls-files') {
        return list(positionalOperands(subcommandRest, ['--exclude', '--exclude-from', '--pathspec-from-file']));
      }
      return unknown;
    }
    case 'fd':
      return fileFinder(rest);
    case 'find':
      return find(rest);
    default:
      return isPython(name) && pythonWalksFiles(rest) ? list([]) : unknown;
  }
}

function list(paths: string[]): Summary {
  return { kind: 'list', paths };
}

function search(query: string | undefined, paths: string[]): Summary {
  return query === undefined ? { kind: 'search', paths } : { kind: 'search', paths, query };
}

/**
 * Operands that are not options: skips `-x`, `--name=value`, and the value after any option in `valueOptions`;
 * everything after `--` is an operand.
 */
function positionalOperands(words: string[], valueOptions: readonly string[]): string[] {
  const operands: string[] = [];
  let skipNext = false;
  let afterDoubleDash = false;
  for (const word of words) {
    if (skipNext) {
      skipNext = false;
    } else if (afterDoubleDash) {
      operands.push(word);
    } else if (word === '--') {
      afterDoubleDash = true;
    } else if (valueOptions.includes(word)) {
      skipNext = true;
    } else if (!word.startsWith('-')) {
      operands.push(word);
    }
  }
  return operands;
}

/** Files read by `head`/`tail`: `-n N file`, `-nN file`, or a lone `file`; other forms (`-5`, `-c`) Codex leaves alone. */
function headOrTailPaths(rest: string[], count: RegExp): string[] | undefined {
  const [first, second] = rest;
  if (first === undefined) return undefined;
  if (first === '-n') {
    return second !== undefined && count.test(second) ? nonOptions(rest.slice(2)) : undefined;
  }
  if (first.startsWith('-n')) return count.test(first.slice(2)) ? nonOptions(rest.slice(1)) : undefined;
  return rest.length === 1 && !first.startsWith('-') ? [first] : undefined;
}

function nonOptions(words: string[]): string[] {
  return words.filter((word) => !word.startsWith('-'));
}

/** Files printed by `sed -n '<N>p' file` or `sed -n '<N>,<M>p' file`; undefined for every other sed. */
function sedReadPaths(rest: string[]): string[] | undefined {
  if (!rest.includes('-n')) return undefined;
  if (!rest.some((word) => sedRange.test(word))) return undefined;
  const operands = positionalOperands(rest, ['-e', '-f', '--expression', '--file']);
  // The range is the first operand unless it was given with `-e`, which positionalOperands already skipped.
  const files = sedRange.test(operands[0] ?? '') ? operands.slice(1) : operands;
  return files.length > 0 ? files : undefined;
}

/** Data files of an awk call: the operands after the program text, or all of them when the program is `-f file`. */
function awkDataFiles(rest: string[]): string[] {
  const operands = positionalOperands(rest, ['-F', '-v', '-f', '--field-separator', '--assign', '--file']);
  const programInFile = rest.some((word) => word === '-f' || word === '--file');
  return programInFile ? operands : operands.slice(1);
}

function ripgrep(rest: string[]): Summary {
  const operands = positionalOperands(rest, [
    '-g',
    '--glob',
    '--iglob',
    '-t',
    '--type',
    '--type-add',
    '--type-not',
    '-m',
    '--max-count',
    '-A',
    '-B',
    '-C',
    '--context',
    '--max-depth',
  ]);
  if (rest.includes('--files')) return list(operands);
  const [query, ...paths] = operands;
  return search(query, paths);
}

/** grep, egrep, fgrep and git grep: the pattern is `-e`/`-f`'s value or else the first operand; the rest are paths. */
function grepLike(rest: string[]): Summary {
  let pattern: string | undefined;
  const operands: string[] = [];
  let afterDoubleDash = false;
  let index = 0;
  while (index < rest.length) {
    const word = rest[index] ?? '';
    index += 1;
    if (afterDoubleDash) {
      operands.push(word);
    } else if (word === '--') {
      afterDoubleDash = true;
    } else if (word === '-e' || word === '--regexp' || word === '-f' || word === '--file') {
      pattern ??= rest[index];
      index += 1;
    } else if (
      ['-m', '--max-count', '-C', '--context', '-A', '--after-context', '-B', '--before-context'].includes(word)
    ) {
      index += 1;
    } else if (/^--(regexp|file)=/.test(word)) {
      pattern ??= word.slice(word.indexOf('=') + 1);
    } else if (/^-[ef]./.test(word)) {
      pattern ??= word.slice(2);
    } else if (!word.startsWith('-')) {
      operands.push(word);
    }
  }
  if (pattern !== undefined) return search(pattern, operands);
  const [query, ...paths] = operands;
  return search(query, paths);
}

/** fd: a lone path-like operand is a listing; otherwise the first operand is the pattern. */
function fileFinder(rest: string[]): Summary {
  const searchPaths: string[] = [];
  for (const [index, word] of rest.entries()) {
    const value = word === '--search-path' ? rest[index + 1] : undefined;
    if (value !== undefined) searchPaths.push(value);
    if (word.startsWith('--search-path=')) searchPaths.push(word.slice('--search-path='.length));
  }
  const operands = positionalOperands(rest, ['-t', '--type', '-e', '--extension', '-E', '--exclude', '--search-path']);
  const [first, ...others] = operands;
  if (first === undefined) return list(searchPaths);
  if (others.length === 0 && isPathLike(first)) return list([first, ...searchPaths]);
  return search(first, [...others, ...searchPaths]);
}

function isPathLike(word: string): boolean {
  return word === '.' || word === '..' || word.includes('/') || word.includes('\\');
}

/** find: a `-name`/`-iname`/`-path`/`-regex` filter makes it a search, otherwise it lists its starting point. */
function find(rest: string[]): Summary {
  const operands = positionalOperands(rest, [
    '-type',
    '-name',
    '-iname',
    '-path',
    '-ipath',
    '-regex',
    '-iregex',
    '-perm',
    '-user',
    '-group',
    '-size',
    '-maxdepth',
    '-mindepth',
    '-newer',
    '-exec',
    '-execdir',
    '-ok',
    '-okdir',
    '-printf',
  ]);
  const start = operands.find((word) => word !== '!' && word !== '(' && word !== ')');
  const paths = start === undefined ? [] : [start];
  const filterIndex = rest.findIndex((word) => ['-name', '-iname', '-path', '-regex'].includes(word));
  const query = filterIndex === -1 ? undefined : rest[filterIndex + 1];
  return query === undefined ? list(paths) : search(query, paths);
}

function isPython(name: string): boolean {
  return /^python([23](\..*)?)?$/.test(name);
}

function pythonWalksFiles(rest: string[]): boolean {
  const codeIndex = rest.indexOf('-c');
  const code = codeIndex === -1 ? undefined : rest[codeIndex + 1];
  if (code === undefined) return false;
  return ['os.walk', 'os.listdir', 'os.scandir', 'glob.glob', 'glob.iglob', 'pathlib.Path', '.rglob('].some((call) =>
    code.includes(call),
  );
}

/**
 * Codex drops a few no-op commands once a script has more than one: any `true`, any `nl` with only options
 * (its input comes from the pipe), and `echo`s before the first real command (banners such as `echo ---`).
 */
function dropNoise(summaries: Summary[]): Summary[] {
  if (summaries.length <= 1) return summaries;
  const kept: Summary[] = [];
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

function combine(summaries: Summary[]): ShellAction {
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
