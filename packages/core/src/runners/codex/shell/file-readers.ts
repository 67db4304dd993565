import { positionalOperands } from './positional-operands.js';

const sedRange = /^\d+(,\d+)?p$/;
/** A `head` count: `-n 40`. */
export const lineCount = /^\d+$/;
/** A `tail` offset: `-n 40` or `-n +10`. */
export const lineOffset = /^\+?\d+$/;

/**
 * A program that reads the one file it is given (`cat`, `bat`, `less`…), skipping the values of `valueOptions`;
 * given several, Codex does not call it a read.
 */
const singleFile =
  (valueOptions: readonly string[]) =>
  (rest: string[]): string[] | undefined => {
    const operands = positionalOperands(rest, valueOptions);
    return operands.length === 1 ? operands : undefined;
  };

const batValueOptions = [
  '--theme',
  '--language',
  '--style',
  '--terminal-width',
  '--tabs',
  '--line-range',
  '--map-syntax',
];
const lessValueOptions = [
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
];

/**
 * The programs Codex counts as reading files, each with the paths a call of it reads; undefined when the call is
 * not one of the forms Codex summarises as a read.
 */
export const fileReaders: ReadonlyMap<string, (rest: string[]) => string[] | undefined> = new Map([
  ['cat', singleFile([])],
  ['more', singleFile([])],
  ['bat', singleFile(batValueOptions)],
  ['batcat', singleFile(batValueOptions)],
  ['less', singleFile(lessValueOptions)],
  ['head', (rest: string[]) => headOrTailPaths(rest, lineCount)],
  ['tail', (rest: string[]) => headOrTailPaths(rest, lineOffset)],
  ['nl', (rest: string[]) => positionalOperands(rest, ['-s', '-w', '-v', '-i', '-b'])],
  ['sed', sedReadPaths],
  ['awk', awkDataFiles],
]);

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
export function sedReadPaths(rest: string[]): string[] | undefined {
  if (!rest.includes('-n')) return undefined;
  if (!rest.some((word) => sedRange.test(word))) return undefined;
  const operands = positionalOperands(rest, ['-e', '-f', '--expression', '--file']);
  // The range is the first operand unless it was given with `-e`, which positionalOperands already skipped.
  const files = sedRange.test(operands[0] ?? '') ? operands.slice(1) : operands;
  return files.length > 0 ? files : undefined;
}

/** Data files of an awk call: the operands after the program text, or all of them when the program is `-f file`. */
export function awkDataFiles(rest: string[]): string[] {
  const operands = positionalOperands(rest, ['-F', '-v', '-f', '--field-separator', '--assign', '--file']);
  const programInFile = rest.some((word) => word === '-f' || word === '--file');
  return programInFile ? operands : operands.slice(1);
}
