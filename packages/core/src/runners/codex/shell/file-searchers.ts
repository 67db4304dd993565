import { type CommandSummary, listSummary, searchSummary } from './command-summary.js';
import { positionalOperands } from './positional-operands.js';

/**
 * The programs Codex counts as searching (some of them list, given the right flags), each with the summary of a
 * call of it; undefined when the call is neither.
 */
export const fileSearchers: ReadonlyMap<string, (rest: string[]) => CommandSummary | undefined> = new Map([
  ['rg', ripgrep],
  ['rga', ripgrep],
  ['ripgrep-all', ripgrep],
  ['grep', grepLike],
  ['egrep', grepLike],
  ['fgrep', grepLike],
  ['ag', silverSearcher],
  ['ack', silverSearcher],
  ['pt', silverSearcher],
  ['git', git],
  ['fd', fileFinder],
  ['find', find],
]);

function ripgrep(rest: string[]): CommandSummary {
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
  if (rest.includes('--files')) return listSummary(operands);
  const [query, ...paths] = operands;
  return searchSummary(query, paths);
}

/** grep, egrep, fgrep and git grep: the pattern is `-e`/`-f`'s value or else the first operand; the rest are paths. */
function grepLike(rest: string[]): CommandSummary {
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
  if (pattern !== undefined) return searchSummary(pattern, operands);
  const [query, ...paths] = operands;
  return searchSummary(query, paths);
}

/** ag, ack and pt: the first operand is the pattern, the rest are paths. */
function silverSearcher(rest: string[]): CommandSummary {
  const [query, ...paths] = positionalOperands(rest, [
    '-G',
    '-g',
    '--file-search-regex',
    '--ignore-dir',
    '--ignore-file',
    '--path-to-ignore',
  ]);
  return searchSummary(query, paths);
}

/** `git grep` searches and `git ls-files` lists; every other git command is neither. */
function git(rest: string[]): CommandSummary | undefined {
  const [subcommand, ...subcommandRest] = rest;
  if (subcommand === 'grep') return grepLike(subcommandRest);
  if (subcommand === 'ls-files') {
    return listSummary(positionalOperands(subcommandRest, ['--exclude', '--exclude-from', '--pathspec-from-file']));
  }
  return undefined;
}

/** fd: a lone path-like operand is a listing; otherwise the first operand is the pattern. */
function fileFinder(rest: string[]): CommandSummary {
  const searchPaths: string[] = [];
  for (const [index, word] of rest.entries()) {
    const value = word === '--search-path' ? rest[index + 1] : undefined;
    if (value !== undefined) searchPaths.push(value);
    if (word.startsWith('--search-path=')) searchPaths.push(word.slice('--search-path='.length));
  }
  const operands = positionalOperands(rest, ['-t', '--type', '-e', '--extension', '-E', '--exclude', '--search-path']);
  const [first, ...others] = operands;
  if (first === undefined) return listSummary(searchPaths);
  if (others.length === 0 && isPathLike(first)) return listSummary([first, ...searchPaths]);
  return searchSummary(first, [...others, ...searchPaths]);
}

function isPathLike(word: string): boolean {
  return word === '.' || word === '..' || word.includes('/') || word.includes('\\');
}

/** find: a `-name`/`-iname`/`-path`/`-regex` filter makes it a search, otherwise it lists its starting point. */
function find(rest: string[]): CommandSummary {
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
  return query === undefined ? listSummary(paths) : searchSummary(query, paths);
}
