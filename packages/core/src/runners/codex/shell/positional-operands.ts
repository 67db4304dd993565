/**
 * Operands that are not options: skips `-x`, `--name=value`, and the value after any option in `valueOptions`;
 * everything after `--` is an operand.
 */
export function positionalOperands(words: string[], valueOptions: readonly string[]): string[] {
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
